package io.sluice.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The data and log directories of children: {@code ${java.io.tmpdir}/sluice-*}, deleted by their
 * owner when done, at the latest at JVM exit, or by {@link Orphans} once the owner is gone.
 */
public final class ScratchDirectories {

    private static final String PREFIX = "sluice-";

    private ScratchDirectories() {}

    /** Creates {@code ${java.io.tmpdir}/sluice-<kind>-<random>}, deleted at JVM exit unless before. */
    public static Path create(String kind) {
        try {
            Path dir = Files.createTempDirectory(PREFIX + kind + "-");
            ExitCleanup.deleteAtExit(dir);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a scratch directory for " + kind, e);
        }
    }

    /** Deletes a directory {@link #create} made, with everything in it. */
    public static void delete(Path dir) {
        deleteIfScratch(dir);
        ExitCleanup.keepAtExit(dir);
    }

    /**
     * Deletes {@code dir} recursively if it is a scratch directory, i.e. a {@code sluice-*}
     * directly in the temp directory: a PID file is only text, and must not make anyone delete
     * anything else.
     */
    static void deleteIfScratch(Path dir) {
        Path tmp =
                Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
        Path normal = dir.toAbsolutePath().normalize();
        if (!tmp.equals(normal.getParent()) || !normal.getFileName().toString().startsWith(PREFIX)) {
            throw new IllegalArgumentException(dir + " is not a scratch directory (" + tmp + "/" + PREFIX + "*)");
        }
        if (!Files.exists(normal)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(normal)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (NoSuchFileException e) {
                    // Deleted by a concurrent reaper.
                }
            }
        } catch (NoSuchFileException e) {
            // Deleted by a concurrent reaper.
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
