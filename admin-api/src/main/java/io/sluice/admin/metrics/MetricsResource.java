package io.sluice.admin.metrics;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.sluice.adaptive.AdaptiveScope;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.admission.AdmissionController;
import io.sluice.cluster.ClusterStatus;
import io.sluice.limits.LimitsStore;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** {@code GET /metrics}: a scrape of the server's own registry in the Prometheus text format. */
public final class MetricsResource {

    private final PrometheusRegistry registry;
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

    public MetricsResource(PrometheusRegistry registry) {
        this.registry = registry;
    }

    /**
     * A registry with Sluice's metrics (docs/REFERENCE.md, "Metrics"), the JVM's, and Netty's buffer memory.
     *
     * @param tlsReloadFailures the process's failed reloads of TLS files
     * @param admission admission control, or {@code null} when the proxy runs without it (then
     *        there are no {@code sluice_admission_*} families)
     * @param maxTopics how many topics without a limit get their own {@code topic} label
     * @param maxIdentities how many principals and roles keep their name in {@code sluice_throttle_events_total}
     * @param ready whether the proxy is ready, as {@code /readyz} answers it
     * @param cluster how limits are shared; a standalone status gives no {@code sluice_cluster_*} families
     * @param adaptive the adaptive limits' state; none gives no {@code sluice_adaptive_*} families
     * @param incompleteFrames the bytes of incomplete client frames, or {@code null} for no
     *        {@code sluice_buffered_bytes*} families
     * @param logEventsDropped log events the logging backend dropped, or {@code null} when it drops none
     */
    public static MetricsResource forProxy(
            LimitsStore limits,
            ThrottleLedger ledger,
            TopicActivity activity,
            List<ProxyStats> stats,
            LongSupplier tlsReloadFailures,
            AdmissionController admission,
            int maxTopics,
            int maxIdentities,
            BooleanSupplier ready,
            Supplier<ClusterStatus> cluster,
            Supplier<List<AdaptiveScope>> adaptive,
            IncompleteFrames incompleteFrames,
            LongSupplier logEventsDropped) {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new TopicMetricsCollector(limits, activity, ledger, maxTopics, maxIdentities));
        registry.register(new LimitsCollector(limits));
        registry.register(new ReadinessCollector(ready));
        registry.register(new ThrottleDelayCollector(ledger));
        registry.register(new ProxyStatsCollector(stats, tlsReloadFailures));
        if (admission != null) {
            registry.register(new AdmissionCollector(admission));
        }
        registry.register(new ClusterCollector(cluster));
        registry.register(new AdaptiveCollector(adaptive));
        if (incompleteFrames != null) {
            registry.register(new IncompleteFramesCollector(incompleteFrames));
        }
        if (logEventsDropped != null) {
            registry.register(new LogDropsCollector(logEventsDropped));
        }
        registry.register(new NettyMemoryCollector(ByteBufAllocator.DEFAULT));
        JvmMetrics.builder().register(registry);
        return new MetricsResource(registry);
    }

    public ApiResponse get(ApiRequest request) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 * 1024);
        writer.write(out, registry.scrape());
        return new ApiResponse(HttpResponseStatus.OK, writer.getContentType(), out.toByteArray(), Map.of());
    }
}
