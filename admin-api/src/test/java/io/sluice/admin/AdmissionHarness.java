package io.sluice.admin;

import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionMode;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.Signal;
import io.sluice.admission.SignalSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * A real {@link AdmissionController} on fake signals: cpu and heap are fields the test sets, the
 * other signals have no source (so they are unknown), and time moves only when the test samples.
 * Breakers open on the first breached sample, half-open at the first sample after the cool-down
 * and close on the first healthy sample after that.
 */
final class AdmissionHarness {

    /** The controller's wall clock, which stamps every sample and transition. */
    static final Instant NOW = Instant.parse("2025-01-31T12:00:00Z");

    static final double CPU_THRESHOLD = 0.8;
    static final double HEAP_THRESHOLD = 0.9;
    static final Duration COOL_DOWN = Duration.ofSeconds(10);

    volatile double cpu = 0.2;
    volatile double heap = 0.5;
    final AdmissionController controller;
    private long nowNanos;

    AdmissionHarness(AdmissionMode mode) {
        AdmissionSettings settings = new AdmissionSettings(
                mode,
                Map.of(Signal.CPU, CPU_THRESHOLD, Signal.HEAP, HEAP_THRESHOLD),
                1000,
                1,
                COOL_DOWN.toMillis(),
                0.5,
                1);
        Map<Signal, SignalSource> sources = Map.of(Signal.CPU, now -> cpu, Signal.HEAP, now -> heap);
        controller = new AdmissionController(settings, sources, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    /** Samples once, {@code elapsed} after the previous sample. */
    void sampleAfter(Duration elapsed) {
        nowNanos += elapsed.toNanos();
        controller.sample(nowNanos);
    }

    /** Puts cpu over its threshold and samples: every breaker opens. */
    void overload() {
        cpu = 0.95;
        sampleAfter(Duration.ofSeconds(1));
    }

    /** Brings cpu back under its threshold and samples after the cool-down: every open breaker half-opens. */
    void recover() {
        cpu = 0.2;
        sampleAfter(COOL_DOWN);
    }
}
