package io.sluice.testkit.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The one JVM shutdown hook of the testkit: it stops every child this JVM started and has not
 * seen exit (SIGTERM, then SIGKILL after {@link #GRACE_MILLIS}), then deletes every scratch
 * directory not deleted yet. A test that forgets to close a broker therefore leaves nothing behind
 * when its JVM exits normally; {@link Orphans} covers a JVM that was killed.
 */
final class ExitCleanup {

    private static final long GRACE_MILLIS = 5_000;

    private static final Set<ChildProcess> CHILDREN = ConcurrentHashMap.newKeySet();
    private static final Set<Path> SCRATCH = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ExitCleanup::run, "sluice-testkit-exit"));
    }

    private ExitCleanup() {}

    static void track(ChildProcess child) {
        CHILDREN.add(child);
    }

    static void untrack(ChildProcess child) {
        CHILDREN.remove(child);
    }

    static void deleteAtExit(Path dir) {
        SCRATCH.add(dir);
    }

    static void keepAtExit(Path dir) {
        SCRATCH.remove(dir);
    }

    private static void run() {
        // Without locks: a start still waiting for readiness on another thread sees its child
        // exit and gives up.
        List<ChildProcess> children = List.copyOf(CHILDREN);
        children.forEach(ChildProcess::terminate);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
        for (ChildProcess child : children) {
            try {
                if (!child.awaitExit(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                    child.kill();
                }
                child.forget();
            } catch (RuntimeException e) {
                System.err.println("sluice testkit: could not stop " + child + " at exit: " + e);
            }
        }
        for (Path dir : List.copyOf(SCRATCH)) {
            try {
                ScratchDirectories.deleteIfScratch(dir);
            } catch (RuntimeException e) {
                System.err.println("sluice testkit: could not delete " + dir + " at exit: " + e);
            }
        }
    }
}
