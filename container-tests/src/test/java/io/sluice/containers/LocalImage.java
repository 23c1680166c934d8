package io.sluice.containers;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An image the tests build from a context they assemble, labelled with a fingerprint of its
 * inputs: later runs reuse it while the inputs stay the same and rebuild it when they change.
 * A broker image of each protocol is one of these, made of the jars the testkit runs its broker
 * from (a classpath resource the testkit's build writes), so no broker image is pulled.
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

    /**
     * The jars of a classpath resource the testkit's build wrote (e.g. {@code broker.classpath} next
     * to {@code anchor}), checked to exist and to have distinct names: they all go to one lib/.
     */
    static List<Path> classpathJars(Class<?> anchor, String resource) {
        List<Path> jars = Stream.of(resource(anchor, resource).strip().split(File.pathSeparator)).map(Path::of).toList();
        Set<String> names = new HashSet<>();
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(resource + " names a missing jar, " + jar + "; build the testkit again (-am does)");
            }
            if (!names.add(jar.getFileName().toString())) {
                throw new IllegalStateException("two jars of " + resource + " are named " + jar.getFileName()
                        + "; lib/ in the image needs distinct names");
            }
        }
        return jars;
    }

    /**
     * The fingerprint of an image's inputs: the texts that go into its context (Dockerfile,
     * configuration, command line), the base image's ID, and each jar's name and size.
     */
    static String fingerprint(List<Path> jars, String... texts) {
        StringBuilder inputs = new StringBuilder();
        for (String text : texts) {
            inputs.append(text).append('\0');
        }
        inputs.append(Docker.imageId(BaseImages.JRE)).append('\n');
        try {
            for (Path jar : jars) {
                inputs.append(jar.getFileName()).append(' ').append(Files.size(jar)).append('\n');
            }
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(inputs.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Puts every jar into {@code lib}: hard links where the file system allows them (the jars are large), else copies. */
    static void linkJars(List<Path> jars, Path lib) throws IOException {
        Files.createDirectories(lib);
        for (Path jar : jars) {
            Path link = lib.resolve(jar.getFileName());
            try {
                Files.createLink(link, jar);
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(jar, link);
            }
        }
    }

    /** A resource the testkit generates or ships next to {@code anchor}. */
    static String resource(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing next to " + anchor.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file of the module's src/test/docker, as text. */
    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
