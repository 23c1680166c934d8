package io.sluice.admission;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * The {@link Signal#DIRECT_MEMORY} source: direct memory used over its max.
 *
 * <p>{@link #jdkDirectBuffers()} counts what the JDK accounts for: the {@code direct}
 * {@link BufferPoolMXBean} over {@code -XX:MaxDirectMemorySize} (read through
 * {@link HotSpotDiagnosticMXBean}; when unset or unreadable, the JDK's own default,
 * {@link Runtime#maxMemory()}). An allocator that takes direct memory without the JDK's accounting,
 * as Netty does by default, is invisible there: give this class that allocator's own counter and
 * limit instead (from the Netty side, {@code PlatformDependent::usedDirectMemory} and
 * {@code PlatformDependent.maxDirectMemory()}).
 */
public final class DirectMemoryUsage implements SignalSource {

    private final LongSupplier usedBytes;
    private final long maxBytes;

    /**
     * @param usedBytes direct memory in use, negative if unknown
     * @param maxBytes the most direct memory that may be used; not positive means unknown
     */
    public DirectMemoryUsage(LongSupplier usedBytes, long maxBytes) {
        this.usedBytes = usedBytes;
        this.maxBytes = maxBytes;
    }

    /** Direct buffers as the JDK counts them; see the class comment for what it misses. */
    public static DirectMemoryUsage jdkDirectBuffers() {
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct"))
                .findFirst()
                .orElse(null);
        return new DirectMemoryUsage(direct == null ? () -> -1 : direct::getMemoryUsed, jdkMaxDirectMemory());
    }

    @Override
    public double read(long nowNanos) {
        long used = usedBytes.getAsLong();
        return used < 0 || maxBytes <= 0 ? Double.NaN : (double) used / maxBytes;
    }

    /** {@code -XX:MaxDirectMemorySize}, or the JDK's default for it (the max heap) when it is 0 or unreadable. */
    static long jdkMaxDirectMemory() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotSpot != null) {
            try {
                VMOption option = hotSpot.getVMOption("MaxDirectMemorySize");
                long configured = Long.parseLong(option.getValue());
                if (configured > 0) {
                    return configured;
                }
            } catch (IllegalArgumentException e) {
                // No such option on this JVM, or not a number (NumberFormatException): use the default.
            }
        }
        return Runtime.getRuntime().maxMemory();
    }
}
