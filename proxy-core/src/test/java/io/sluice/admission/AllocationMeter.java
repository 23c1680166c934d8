package io.sluice.admission;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Measures what a hot-path call allocates on the calling thread, where the JVM can tell. */
final class AllocationMeter {

    private static final int CALLS = 50_000;

    private AllocationMeter() {}

    /**
     * Whole bytes allocated per call of {@code action} over a run after a warm-up: 0 when nothing is
     * allocated per call. Skips the test on JVMs that cannot count allocations.
     */
    static long bytesPerCall(Runnable action) {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        for (int i = 0; i < CALLS; i++) {
            action.run();
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            action.run();
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / CALLS;
    }
}
