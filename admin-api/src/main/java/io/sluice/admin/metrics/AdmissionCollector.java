package io.sluice.admin.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionMode;
import io.sluice.admission.AdmissionStatus;
import io.sluice.admission.Signal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Admission control's figures (docs/REFERENCE.md, "Admission control" and "Metrics"), all from one status snapshot per scrape:
 * {@code sluice_admission_state} (by request type), {@code sluice_admission_rejections_total} (by
 * request type and mode: {@code enforced} counts real rejections, {@code monitor_only} the ones
 * monitor-only mode let through) and {@code sluice_admission_signal} (each signal's latest value;
 * unknown values are left out rather than written as NaN).
 */
public final class AdmissionCollector implements MultiCollector {

    private static final String STATE_HELP = "Admission breaker state by request type: 0 closed, 1 half-open, 2 open";
    private static final String REJECTIONS_HELP = "New requests admission control turned away, by request type;"
            + " mode enforced counts rejections, monitor_only the requests it let through but would have rejected";
    private static final String SIGNAL_HELP = "Latest sampled value of each admission signal, unknown ones left out: "
            + Arrays.stream(Signal.values())
                    .map(s -> s.jsonName() + " (" + unit(s.unit()) + ")")
                    .collect(Collectors.joining(", "));

    private final AdmissionController controller;

    public AdmissionCollector(AdmissionController controller) {
        this.controller = controller;
    }

    @Override
    public MetricSnapshots collect() {
        AdmissionStatus status = controller.status();
        GaugeSnapshot.Builder states =
                GaugeSnapshot.builder().name("sluice_admission_state").help(STATE_HELP);
        CounterSnapshot.Builder rejections =
                CounterSnapshot.builder().name("sluice_admission_rejections").help(REJECTIONS_HELP);
        status.breakers().forEach((type, breaker) -> {
            String typeLabel = type.name().toLowerCase(Locale.ROOT);
            states.dataPoint(GaugeDataPointSnapshot.builder()
                    .labels(Labels.of("type", typeLabel))
                    .value(breaker.state().metricValue())
                    .build());
            rejections.dataPoint(CounterDataPointSnapshot.builder()
                    .labels(Labels.of("type", typeLabel, "mode", AdmissionMode.ENFORCED.jsonName()))
                    .value(breaker.rejections())
                    .build());
            rejections.dataPoint(CounterDataPointSnapshot.builder()
                    .labels(Labels.of("type", typeLabel, "mode", AdmissionMode.MONITOR_ONLY.jsonName()))
                    .value(breaker.wouldBeRejections())
                    .build());
        });
        GaugeSnapshot.Builder signals =
                GaugeSnapshot.builder().name("sluice_admission_signal").help(SIGNAL_HELP);
        status.signals().forEach((signal, reading) -> {
            if (!Double.isNaN(reading.value())) {
                signals.dataPoint(GaugeDataPointSnapshot.builder()
                        .labels(Labels.of("signal", signal.jsonName()))
                        .value(reading.value())
                        .build());
            }
        });
        return MetricSnapshots.of(states.build(), rejections.build(), signals.build());
    }

    private static String unit(Signal.Unit unit) {
        return switch (unit) {
            case FRACTION -> "share, 0 to 1";
            case MILLISECONDS -> "milliseconds";
            case PER_INTERVAL -> "count per sample interval";
        };
    }
}
