package io.sluice.admission;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;

/**
 * The {@link Signal#HEAP} source: heap used over heap max ({@code -Xmx}), or over committed heap
 * when the max is undefined. "Used" includes garbage not yet collected, so a single high sample
 * means little; that is why a breaker opens only after several consecutive breaches.
 */
public final class HeapUsage implements SignalSource {

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    @Override
    public double read(long nowNanos) {
        MemoryUsage heap = memory.getHeapMemoryUsage();
        long max = heap.getMax() > 0 ? heap.getMax() : heap.getCommitted();
        return max > 0 ? (double) heap.getUsed() / max : Double.NaN;
    }
}
