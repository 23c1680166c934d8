package io.sluice.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the repository these tests check, found from the module's build (or its working directory). */
final class Repo {

    private Repo() {}

    static Path root() {
        String configured = System.getProperty("sluice.repo.root");
        Path root = configured != null
                ? Path.of(configured)
                : Path.of("").toAbsolutePath().getParent();
        root = root.toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isDirectory(root.resolve("helm/sluice"))) {
            throw new IllegalStateException("not the Sluice repository root: " + root);
        }
        return root;
    }

    static Path chart() {
        return root().resolve("helm/sluice");
    }

    static String read(String relativePath) {
        try {
            return Files.readString(root().resolve(relativePath));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
