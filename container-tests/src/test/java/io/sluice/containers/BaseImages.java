package io.sluice.containers;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The local base images everything here is built on, made from Debian's own packages by
 * {@code src/test/docker/base-images.sh} when missing: a minbase Debian bookworm and a Java 17
 * runtime on it. No image registry is needed.
 */
final class BaseImages {

    /** Debian bookworm, debootstrapped from the host's mirror. */
    static final String DEBIAN = "local/debian:bookworm";
    /** {@link #DEBIAN} with Debian's openjdk-17-jre-headless: the runtime base of every test image. */
    static final String JRE = "local/jre:17";

    private static boolean present;

    private BaseImages() {}

    /** Builds the images that are missing (about a minute, and root for debootstrap); quick when both exist. */
    static synchronized void ensure() {
        if (present) {
            return;
        }
        Docker.connectTestcontainers();
        String output = Docker.command(
                Duration.ofMinutes(15),
                Map.of("SLUICE_DEBIAN_IMAGE", DEBIAN, "SLUICE_JRE_IMAGE", JRE),
                List.of("bash", Locations.dockerDir().resolve("base-images.sh").toString()));
        // The script's own lines only; the classic builder adds a deprecation notice.
        output.lines().filter(line -> line.startsWith("base-images:")).forEach(System.out::println);
        present = true;
    }
}
