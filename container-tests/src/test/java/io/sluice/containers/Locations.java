package io.sluice.containers;

import java.nio.file.Path;

/** Where the build put what the tests use; failsafe passes each as a system property (see pom.xml). */
final class Locations {

    private Locations() {}

    /** The repository root: the build context of Sluice's image. */
    static Path repoRoot() {
        return path("sluice.repo.root");
    }

    /** The shaded jar the host build made, proxy-server/target/sluice.jar. */
    static Path sluiceJar() {
        return path("sluice.jar");
    }

    /** This module's src/test/docker: the base-image script and the test images' Dockerfiles. */
    static Path dockerDir() {
        return path("sluice.containerTests.docker");
    }

    /** A scratch directory under target/ for the build contexts the tests assemble. */
    static Path workDir() {
        return path("sluice.containerTests.work");
    }

    private static Path path(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("system property " + property + " is not set; run these tests with "
                    + "mvn -Pcontainers verify -pl container-tests -am, whose failsafe configuration sets it");
        }
        return Path.of(value).toAbsolutePath().normalize();
    }
}
