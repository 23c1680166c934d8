package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.relay.IncompleteFrames;

/**
 * The bytes of frames clients have not finished sending, all front ends together:
 * {@code sluice_buffered_bytes}, its bound {@code sluice_buffered_bytes_limit}
 * ({@code --max-buffered-bytes}) and {@code sluice_buffered_bytes_stops_total}, how often a
 * connection stopped being read because the total was over the bound.
 */
public final class IncompleteFramesCollector implements MultiCollector {

    private final IncompleteFrames frames;

    public IncompleteFramesCollector(IncompleteFrames frames) {
        this.frames = frames;
    }

    @Override
    public MetricSnapshots collect() {
        return MetricSnapshots.of(
                NettyMemoryCollector.gauge(
                        "sluice_buffered_bytes", "Bytes of incomplete client frames Sluice holds now", frames.bytes()),
                NettyMemoryCollector.gauge(
                        "sluice_buffered_bytes_limit",
                        "Bytes of incomplete client frames past which the largest stop being read (--max-buffered-bytes)",
                        frames.maxBytes()),
                CounterSnapshot.builder()
                        .name("sluice_buffered_bytes_stops")
                        .help("Times a client connection stopped being read because incomplete frames held too many"
                                + " bytes")
                        .dataPoint(CounterDataPointSnapshot.builder()
                                .value(frames.stops())
                                .build())
                        .build());
    }
}
