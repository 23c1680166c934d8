package io.sluice.testkit.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Ends the children whose owner JVM is gone: a JVM that was SIGKILLed cannot run its shutdown
 * hook, so its children would run on for ever. Children of JVMs that still run are left alone,
 * and so is any process whose command line no longer contains its marker (the PID was reused).
 * {@link ChildProcess#start} reaps before every launch; {@code .ci/run} does the same in shell.
 */
public final class Orphans {

    private Orphans() {}

    /**
     * Kills (SIGKILL) every orphaned child recorded in {@link PidFile#directory()}, deletes its
     * scratch directory and its PID file. Best effort: what cannot be cleaned is reported on
     * stderr, never thrown, so that a leftover cannot stop a new child from starting.
     */
    public static void reap() {
        Path dir = PidFile.directory();
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.pid")) {
            for (Path file : files) {
                try {
                    PidFile.read(file).ifPresent(Orphans::reapIfOrphan);
                } catch (IOException | RuntimeException e) {
                    System.err.println("sluice testkit: could not clean up after " + file + ": " + e);
                }
            }
        } catch (IOException e) {
            System.err.println("sluice testkit: could not list " + dir + ": " + e);
        }
    }

    private static void reapIfOrphan(PidFile record) {
        if (isAlive(record.owner())) {
            return;
        }
        ProcessHandle.of(record.pid())
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains(record.marker()))
                        .orElse(false))
                .ifPresent(p -> {
                    System.err.println(
                            "sluice testkit: killing orphaned child " + record.pid() + " (" + record.marker() + ")");
                    p.destroyForcibly();
                    try {
                        p.onExit().get(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("orphan " + record.pid() + " did not exit after SIGKILL", e);
                    }
                });
        if (!PidFile.NO_DIRECTORY.equals(record.dir())) {
            ScratchDirectories.deleteIfScratch(Path.of(record.dir()));
        }
        try {
            Files.deleteIfExists(record.path());
        } catch (IOException e) {
            System.err.println("sluice testkit: could not remove " + record.path() + ": " + e);
        }
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
