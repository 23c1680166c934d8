package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.limits.LimitsStore;
import io.sluice.status.IdentityField;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.ThrottleLedger.EventKey;
import io.sluice.status.TopicActivity;
import io.sluice.status.TopicMeter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * Every family with {@code protocol} and {@code topic} labels, collected together so that one {@link TopicLabels}
 * choice per scrape applies to all of them and their {@value TopicLabels#OTHER} sums agree; the
 * throttle-event counters also carry the front ends' identity labels ({@code principal}, {@code role}),
 * bounded by {@link IdentityLabels}. The
 * {@value TopicLabels#OTHER} series is always written, so each traffic family exists from the
 * first scrape on.
 */
public final class TopicMetricsCollector implements MultiCollector {

    private final LimitsStore limits;
    private final TopicActivity activity;
    private final ThrottleLedger ledger;
    private final int maxTopics;
    private final int maxIdentities;

    /**
     * @param maxTopics how many topics without a limit get their own label
     * @param maxIdentities how many principals and roles keep their name in the throttle-event counters
     */
    public TopicMetricsCollector(
            LimitsStore limits, TopicActivity activity, ThrottleLedger ledger, int maxTopics, int maxIdentities) {
        if (maxTopics < 0) {
            throw new IllegalArgumentException("metricsMaxTopics must not be negative, got " + maxTopics);
        }
        if (maxIdentities < 0) {
            throw new IllegalArgumentException("metricsMaxIdentities must not be negative, got " + maxIdentities);
        }
        this.limits = limits;
        this.activity = activity;
        this.ledger = ledger;
        this.maxTopics = maxTopics;
        this.maxIdentities = maxIdentities;
    }

    @Override
    public MetricSnapshots collect() {
        List<TopicMeter> meters = activity.meters();
        TopicLabels labels = TopicLabels.select(limits.catalogue(), limits.current(), meters, maxTopics);
        Map<Series, Totals> totals = new TreeMap<>();
        // Every protocol of the catalogue has its series from the first scrape on.
        for (String protocol : limits.catalogue().protocols()) {
            totals.put(new Series(protocol, TopicLabels.OTHER), new Totals());
        }
        for (TopicMeter meter : meters) {
            totals.computeIfAbsent(
                            new Series(meter.protocol(), labels.label(meter.protocol(), meter.topic())),
                            series -> new Totals())
                    .add(meter);
        }
        Map<EventKey, Long> counted = ledger.events();
        IdentityLabels identities = IdentityLabels.select(counted, maxIdentities);
        Map<EventKey, Long> events = new LinkedHashMap<>();
        counted.forEach((key, count) -> events.merge(
                new EventKey(
                        key.protocol(),
                        labels.label(key.protocol(), key.topic()),
                        key.scope(),
                        key.reason(),
                        key.action(),
                        identities.bounded(key.identity())),
                count,
                Long::sum));

        return MetricSnapshots.of(
                counter(
                        "sluice_publish_messages",
                        "Messages sent to the broker by producers, by topic",
                        totals,
                        t -> t.publishMessages),
                counter(
                        "sluice_publish_bytes",
                        "Payload bytes sent to the broker by producers, by topic",
                        totals,
                        t -> t.publishBytes),
                counter(
                        "sluice_dispatch_messages",
                        "Messages the broker dispatched to consumers, by topic",
                        totals,
                        t -> t.dispatchMessages),
                counter(
                        "sluice_dispatch_bytes",
                        "Payload bytes the broker dispatched to consumers, by topic",
                        totals,
                        t -> t.dispatchBytes),
                gauge("sluice_held_messages", "Sends held in the proxy now, by topic", totals, t -> t.heldMessages),
                gauge("sluice_held_bytes", "Bytes of sends held in the proxy now, by topic", totals, t -> t.heldBytes),
                throttleEvents(events, identityLabels()));
    }

    private static CounterSnapshot counter(
            String name, String help, Map<Series, Totals> totals, ToLongFunction<Totals> value) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help);
        totals.forEach((series, t) -> family.dataPoint(CounterDataPointSnapshot.builder()
                .labels(series.labels())
                .value(value.applyAsLong(t))
                .build()));
        return family.build();
    }

    private static GaugeSnapshot gauge(
            String name, String help, Map<Series, Totals> totals, ToLongFunction<Totals> value) {
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name(name).help(help);
        totals.forEach((series, t) -> family.dataPoint(GaugeDataPointSnapshot.builder()
                .labels(series.labels())
                .value(value.applyAsLong(t))
                .build()));
        return family.build();
    }

    /** The identity labels: every front end's identity fields that are metric labels, in their order. */
    private List<String> identityLabels() {
        return limits.catalogue().identityFields().stream()
                .filter(IdentityField::metricLabel)
                .map(IdentityField::name)
                .toList();
    }

    private static CounterSnapshot throttleEvents(Map<EventKey, Long> events, List<String> identityLabels) {
        CounterSnapshot.Builder family = CounterSnapshot.builder()
                .name("sluice_throttle_events")
                .help(
                        "Times a producer or consumer started being throttled, by protocol, topic, exceeded scope, reason,"
                                + " action and identity"
                                + (identityLabels.isEmpty() ? "" : " (" + String.join(", ", identityLabels) + ")"));
        events.forEach((key, count) -> {
            List<String> labels = new ArrayList<>(List.of(
                    "protocol",
                    key.protocol(),
                    "topic",
                    key.topic(),
                    "scope",
                    text(key.scope()),
                    "reason",
                    text(key.reason()),
                    "action",
                    text(key.action())));
            for (String label : identityLabels) {
                Object value = key.identity().get(label);
                labels.add(label);
                labels.add(value == null ? "" : value.toString());
            }
            family.dataPoint(CounterDataPointSnapshot.builder()
                    .labels(Labels.of(labels.toArray(String[]::new)))
                    .value(count)
                    .build());
        });
        return family.build();
    }

    private static String text(String labelValue) {
        return labelValue == null ? "" : labelValue;
    }

    /** One series of a per-topic family: its protocol and topic label. */
    private record Series(String protocol, String topic) implements Comparable<Series> {

        Labels labels() {
            return Labels.of("protocol", protocol, "topic", topic);
        }

        @Override
        public int compareTo(Series other) {
            int byProtocol = protocol.compareTo(other.protocol);
            return byProtocol != 0 ? byProtocol : topic.compareTo(other.topic);
        }
    }

    /** The sums of the topics under one label value. */
    private static final class Totals {
        long publishMessages;
        long publishBytes;
        long dispatchMessages;
        long dispatchBytes;
        long heldMessages;
        long heldBytes;

        void add(TopicMeter meter) {
            publishMessages += meter.publishMessages();
            publishBytes += meter.publishBytes();
            dispatchMessages += meter.dispatchMessages();
            dispatchBytes += meter.dispatchBytes();
            heldMessages += meter.heldMessages();
            heldBytes += meter.heldBytes();
        }
    }
}
