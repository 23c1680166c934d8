package io.sluice.testkit.process;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A classpath file the build wrote next to a class ({@code dependency:build-classpath} of the
 * jars a child runs on, which are never on the caller's classpath), checked so that a missing jar
 * fails here with a clear message rather than in the child.
 */
public final class RuntimeClasspath {

    private RuntimeClasspath() {}

    /**
     * Reads the resource {@code name} next to {@code anchor}.
     *
     * @throws IllegalStateException if it is missing or names a jar that does not exist
     */
    public static String read(Class<?> anchor, String name) {
        String classpath;
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing next to " + anchor.getName()
                        + "; the testkit build generates it (mvn -pl testkit -am package)");
            }
            classpath = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Optional<String> missing = Stream.of(classpath.split(File.pathSeparator))
                .filter(jar -> !Files.exists(Path.of(jar)))
                .findFirst();
        if (missing.isPresent()) {
            throw new IllegalStateException(name + " names a missing jar, " + missing.get()
                    + "; rebuild the testkit (mvn -pl testkit -am package) to resolve it");
        }
        return classpath;
    }
}
