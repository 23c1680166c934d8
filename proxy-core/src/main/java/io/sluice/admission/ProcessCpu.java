package io.sluice.admission;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The {@link Signal#CPU} source: the process's CPU time since the previous read over the wall
 * time times the available processors (container-aware), smoothed by a {@link MovingAverage}.
 * Computed from {@code com.sun.management.OperatingSystemMXBean#getProcessCpuTime()} rather than
 * {@code getProcessCpuLoad()} so the measuring interval is exactly the sampler's. Unknown (NaN)
 * on the first read and on JVMs without that bean.
 */
public final class ProcessCpu implements SignalSource {

    /** The moving average's time constant: a burst shorter than this barely moves the value. */
    public static final Duration DEFAULT_SMOOTHING = Duration.ofSeconds(5);

    private final LongSupplier cpuTimeNanos;
    private final IntSupplier processors;
    private final MovingAverage average;
    private long lastCpuNanos = -1;
    private long lastNanos;

    /** Reads this JVM's process CPU time, smoothed over {@link #DEFAULT_SMOOTHING}. */
    public ProcessCpu() {
        this(processCpuTime(), Runtime.getRuntime()::availableProcessors, DEFAULT_SMOOTHING);
    }

    /**
     * @param cpuTimeNanos the process's total CPU time so far in nanoseconds, negative if unknown
     * @param processors how many processors the process may use
     * @param smoothing the moving average's time constant
     */
    ProcessCpu(LongSupplier cpuTimeNanos, IntSupplier processors, Duration smoothing) {
        this.cpuTimeNanos = cpuTimeNanos;
        this.processors = processors;
        this.average = new MovingAverage(smoothing.toNanos());
    }

    @Override
    public double read(long nowNanos) {
        long cpuNanos = cpuTimeNanos.getAsLong();
        if (cpuNanos < 0) {
            return Double.NaN;
        }
        double load = Double.NaN;
        if (lastCpuNanos >= 0 && nowNanos > lastNanos) {
            double capacity = (double) (nowNanos - lastNanos) * Math.max(1, processors.getAsInt());
            load = Math.min(1, Math.max(0, (cpuNanos - lastCpuNanos) / capacity));
        }
        lastCpuNanos = cpuNanos;
        lastNanos = nowNanos;
        return average.add(load, nowNanos);
    }

    private static LongSupplier processCpuTime() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os::getProcessCpuTime;
        }
        return () -> -1;
    }
}
