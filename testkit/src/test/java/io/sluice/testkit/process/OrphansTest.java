package io.sluice.testkit.process;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reaper against real processes: it kills a child whose owner is gone and deletes its
 * scratch directory, but spares a child whose owner runs and a process whose command line lacks
 * the marker (a reused PID).
 */
class OrphansTest {

    @Test
    void killsTheChildOfADeadOwnerOnlyWhileItsCommandLineHasTheMarker() throws Exception {
        long deadOwner = deadPid();
        Path scratch = ScratchDirectories.create("orphans-test");
        Process orphan = sleeper("sluice-orphan-marker-1");
        Process reused = sleeper("sluice-orphan-marker-2");
        Process owned = sleeper("sluice-orphan-marker-3");
        try {
            new PidFile(orphan.pid(), deadOwner, scratch.toString(), "sluice-orphan-marker-1").write();
            // A PID file naming a live process that is not the child it recorded.
            new PidFile(reused.pid(), deadOwner, PidFile.NO_DIRECTORY, "sluice-orphan-marker-9").write();
            new PidFile(owned.pid(), ProcessHandle.current().pid(), PidFile.NO_DIRECTORY, "sluice-orphan-marker-3")
                    .write();

            Orphans.reap();

            assertTrue(orphan.waitFor(10, TimeUnit.SECONDS), "the orphan is killed");
            assertFalse(Files.exists(scratch), "its scratch directory is deleted");
            assertFalse(Files.exists(PidFile.directory().resolve(orphan.pid() + ".pid")));
            assertTrue(reused.isAlive(), "a process without the marker is spared");
            assertFalse(
                    Files.exists(PidFile.directory().resolve(reused.pid() + ".pid")), "its stale record is dropped");
            assertTrue(owned.isAlive(), "the child of a running owner is spared");
            assertTrue(Files.exists(PidFile.directory().resolve(owned.pid() + ".pid")));
        } finally {
            for (Process p : List.of(orphan, reused, owned)) {
                p.destroyForcibly().waitFor();
                Files.deleteIfExists(PidFile.directory().resolve(p.pid() + ".pid"));
            }
        }
    }

    @Test
    void aChildIsRecordedWhileItRunsAndItsLogQuotedWhenItFailsToBeReady() throws Exception {
        Path scratch = ScratchDirectories.create("orphans-test");
        try {
            ChildProcess child = ChildSpec.builder(
                            "failing", List.of("sh", "-c", "echo about to fail; sleep 1; exit 3", "sluice-marker"))
                    .marker("sluice-marker")
                    .logFile(scratch.resolve("child.log"))
                    .build()
                    .start();
            Path record = PidFile.directory().resolve(child.pid() + ".pid");
            assertTrue(Files.readString(record)
                    .startsWith(child.pid() + " " + ProcessHandle.current().pid() + " - sluice-marker"));
            ChildStartException failure = assertThrows(
                    ChildStartException.class,
                    () -> Readiness.await(child, "listened", Duration.ofSeconds(30), () -> false));
            assertTrue(failure.getMessage().contains("Its log is kept at " + failure.keptLog()), failure.getMessage());
            assertEquals(Files.readString(scratch.resolve("child.log")), Files.readString(failure.keptLog()));
            Files.delete(failure.keptLog());
            assertTrue(
                    failure.getMessage().startsWith("failing exited with code 3 before it listened"),
                    failure.getMessage());
            assertTrue(failure.getMessage().contains("about to fail"), failure.getMessage());
            assertEquals(3, child.exitValue());
            child.stop(Duration.ofSeconds(1));
            assertFalse(Files.exists(record), "the record goes with the process");
        } finally {
            ScratchDirectories.delete(scratch);
        }
    }

    /** A PID that no process has right now. */
    private static long deadPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    /** A process whose command line contains {@code marker}: a shell looping on a short sleep. */
    private static Process sleeper(String marker) throws IOException {
        return new ProcessBuilder("sh", "-c", "while sleep 0.2; do :; done", marker).start();
    }
}
