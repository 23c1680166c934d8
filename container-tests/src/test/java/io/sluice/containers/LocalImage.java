package io.sluice.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * An image the tests build from a context they assemble, labelled with a fingerprint of its
 * inputs: later runs reuse it while the inputs stay the same and rebuild it when they change.
 * A broker image of each protocol is one of these.
 */
final class LocalImage {

    private static final String FINGERPRINT_LABEL = "io.sluice.test.fingerprint";

    /** Writes a build context (a Dockerfile and what it copies) into an empty directory. */
    @FunctionalInterface
    interface Context {
        void writeTo(Path directory) throws IOException;
    }

    private LocalImage() {
    }

    /**
     * Builds {@code tag} in {@code scratch} from the context {@code context} writes, unless the
     * engine already has it with this fingerprint. The scratch directory is emptied before and
     * after the build; the image the new one replaces is removed.
     */
    static void ensure(String tag, String fingerprint, Path scratch, Context context, Map<String, String> buildArgs) {
        if (fingerprint.equals(Docker.label(tag, FINGERPRINT_LABEL))) {
            System.out.println("container-tests: " + tag + " present");
            return;
        }
        String previous = Docker.hasImage(tag) ? Docker.imageId(tag) : null;
        long start = System.nanoTime();
        try {
            deleteRecursively(scratch);
            Files.createDirectories(scratch);
            context.writeTo(scratch);
            List<String> args = new ArrayList<>(List.of("build", "-q", "-t", tag, "--label", FINGERPRINT_LABEL + "=" + fingerprint));
            buildArgs.forEach((name, value) -> args.addAll(List.of("--build-arg", name + "=" + value)));
            args.add(scratch.toString());
            Docker.run(Duration.ofMinutes(10), args.toArray(String[]::new));
            deleteRecursively(scratch);
            if (previous != null) {
                Docker.removeImageIfUnused(previous);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot assemble the build context of " + tag + " in " + scratch, e);
        }
        System.out.printf("container-tests: built %s in %.1f s%n", tag, (System.nanoTime() - start) / 1e9);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
