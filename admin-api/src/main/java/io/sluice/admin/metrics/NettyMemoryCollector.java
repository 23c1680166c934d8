package io.sluice.admin.metrics;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * Memory taken by Netty's buffer allocator, where held sends live:
 * {@code sluice_netty_direct_memory_bytes} and {@code sluice_netty_heap_memory_bytes}. Reads the
 * allocator the proxy's channels use, {@link ByteBufAllocator#DEFAULT}; since Netty 4.2 that is
 * the adaptive allocator, not {@code PooledByteBufAllocator.DEFAULT}.
 */
public final class NettyMemoryCollector implements MultiCollector {

    private final ByteBufAllocator allocator;

    /** @param allocator the allocator to report; nothing is reported unless it exposes metrics */
    public NettyMemoryCollector(ByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    @Override
    public MetricSnapshots collect() {
        if (!(allocator instanceof ByteBufAllocatorMetricProvider provider)) {
            return MetricSnapshots.of();
        }
        ByteBufAllocatorMetric metric = provider.metric();
        return MetricSnapshots.of(
                gauge(
                        "sluice_netty_direct_memory_bytes",
                        "Direct memory held by Netty's buffer allocator",
                        metric.usedDirectMemory()),
                gauge(
                        "sluice_netty_heap_memory_bytes",
                        "Heap memory held by Netty's buffer allocator",
                        metric.usedHeapMemory()));
    }

    /** A gauge of one unlabelled value. */
    static GaugeSnapshot gauge(String name, String help, long bytes) {
        return GaugeSnapshot.builder()
                .name(name)
                .help(help)
                .dataPoint(GaugeDataPointSnapshot.builder().value(bytes).build())
                .build();
    }
}
