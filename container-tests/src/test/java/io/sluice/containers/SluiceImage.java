package io.sluice.containers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Sluice's image as an operator builds it where the build cannot reach Maven Central: the
 * repository's own Dockerfile and build context, target {@code prebuilt} (the jar the host build
 * made), on the local JRE base instead of the public one (README, Containers).
 */
final class SluiceImage {

    static final String TAG = "local/sluice:test";

    private static boolean built;

    private SluiceImage() {}

    /** Builds the image once per JVM (the engine's layer cache makes an unchanged jar quick) and returns its tag. */
    static synchronized String ensure() {
        if (built) {
            return TAG;
        }
        BaseImages.ensure();
        Path jar = Locations.sluiceJar();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first (mvn -B -Pcontainers verify -pl "
                    + "container-tests -am builds it, as does mvn -B package -DskipTests -pl proxy-server -am)");
        }
        String previous = Docker.hasImage(TAG) ? Docker.imageId(TAG) : null;
        long start = System.nanoTime();
        Docker.run(
                Duration.ofMinutes(5),
                "build",
                "-q",
                "--target",
                "prebuilt",
                "--build-arg",
                "RUNTIME_IMAGE=" + BaseImages.JRE,
                "-t",
                TAG,
                Locations.repoRoot().toString());
        if (previous != null && !previous.equals(Docker.imageId(TAG))) {
            // A new jar: the image it replaces would stay behind untagged, build after build.
            Docker.removeImageIfUnused(previous);
        }
        System.out.printf("container-tests: built %s in %.1f s%n", TAG, (System.nanoTime() - start) / 1e9);
        built = true;
        return TAG;
    }
}
