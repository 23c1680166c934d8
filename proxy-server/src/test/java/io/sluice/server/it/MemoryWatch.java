package io.sluice.server.it;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples the test JVM's memory every 50 ms and keeps the peaks: heap in use, and direct memory
 * as Netty counts it (its own counter when it manages direct memory, else the default allocator's).
 * Sluice runs in the test JVM, so these bound what a hostile peer can make it hold.
 */
final class MemoryWatch implements AutoCloseable {

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final AtomicLong peakHeap = new AtomicLong();
    private final AtomicLong peakDirect = new AtomicLong();
    private final Thread sampler;
    private volatile boolean running = true;

    MemoryWatch() {
        sampler = new Thread(
                () -> {
                    while (running) {
                        sample();
                        try {
                            Thread.sleep(50);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "memory-watch");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Direct memory Netty holds now, in bytes. */
    static long directNow() {
        long counted = PlatformDependent.usedDirectMemory();
        if (counted >= 0) {
            return counted;
        }
        return ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT)
                .metric()
                .usedDirectMemory();
    }

    /** Heap in use now, in bytes (garbage included: a peak is an upper bound). */
    static long heapNow() {
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private void sample() {
        peakHeap.accumulateAndGet(heapNow(), Math::max);
        peakDirect.accumulateAndGet(directNow(), Math::max);
    }

    long peakHeapBytes() {
        return peakHeap.get();
    }

    long peakDirectBytes() {
        return peakDirect.get();
    }

    String summary() {
        return String.format("peak heap %d MiB, peak direct %d MiB", peakHeap.get() >> 20, peakDirect.get() >> 20);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        sampler.join();
        sample();
    }
}
