package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.limits.Direction;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;

import java.util.Locale;
import java.util.function.Function;

/**
 * The limits in force as gauges, so a dashboard can draw a rate against its limit:
 * {@code sluice_limit_messages_per_second} and {@code sluice_limit_bytes_per_second}, one series
 * per scope and direction that has the rate. Labels: {@code protocol} (empty for the proxy
 * scope, which every protocol shares), {@code scope}, {@code name} and {@code direction}
 * ({@code publish} or {@code dispatch}). Read from the store's document at scrape time, kind by
 * kind of its catalogue.
 */
public final class LimitsCollector implements MultiCollector {

    private final LimitsStore limits;

    public LimitsCollector(LimitsStore limits) {
        this.limits = limits;
    }

    @Override
    public MetricSnapshots collect() {
        GaugeSnapshot.Builder messages = GaugeSnapshot.builder()
                .name("sluice_limit_messages_per_second")
                .help("Each message (record) rate limit in force, by protocol, scope, name and direction");
        GaugeSnapshot.Builder bytes = GaugeSnapshot.builder()
                .name("sluice_limit_bytes_per_second")
                .help("Each byte rate limit in force, by protocol, scope, name and direction");
        LimitsDocument document = limits.current();
        for (ScopeKind kind : limits.catalogue().kinds()) {
            document.limitsOf(kind).forEach((name, limit) -> add(messages, bytes, new ScopeRef(kind, name), limit));
        }
        return MetricSnapshots.of(messages.build(), bytes.build());
    }

    private static void add(GaugeSnapshot.Builder messages, GaugeSnapshot.Builder bytes, ScopeRef scope, Limit limit) {
        for (Direction direction : Direction.values()) {
            RateLimit rates = limit.rates(direction);
            if (rates != null) {
                point(messages, scope, direction, rates, RateLimit::messagesPerSecond);
                point(bytes, scope, direction, rates, RateLimit::bytesPerSecond);
            }
        }
    }

    private static void point(
            GaugeSnapshot.Builder family,
            ScopeRef scope,
            Direction direction,
            RateLimit rates,
            Function<RateLimit, Double> rate) {
        Double value = rate.apply(rates);
        if (value == null) {
            return;
        }
        String protocol = scope.kind().protocol() == null ? "" : scope.kind().protocol();
        family.dataPoint(GaugeDataPointSnapshot.builder()
                .labels(Labels.of(
                        "protocol",
                        protocol,
                        "scope",
                        scope.kind().label(),
                        "name",
                        scope.name(),
                        "direction",
                        direction.name().toLowerCase(Locale.ROOT)))
                .value(value)
                .build());
    }
}
