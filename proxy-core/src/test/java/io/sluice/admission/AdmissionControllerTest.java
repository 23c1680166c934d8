package io.sluice.admission;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionControllerTest {

    private static final RequestType[] TYPES = RequestType.values();
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final Duration COOL_DOWN = Duration.ofSeconds(10);
    private static final String LATENCY_REJECTION =
            "Sluice admission control: upstream_latency_p99 1530 ms > 1000 ms; retry later";

    private final FakeClock clock = new FakeClock();
    private final SettableSignal cpu = new SettableSignal();
    private final SettableSignal latency = new SettableSignal();

    private AdmissionController controller(AdmissionSettings settings) {
        return new AdmissionController(settings, Map.of(Signal.CPU, cpu, Signal.UPSTREAM_LATENCY_P99, latency), clock);
    }

    private static AdmissionSettings enforced() {
        return AdmissionSettings.DEFAULTS.withMode(AdmissionMode.ENFORCED);
    }

    /** Takes {@code count} samples one interval apart. */
    private void sample(AdmissionController controller, int count) {
        for (int i = 0; i < count; i++) {
            controller.sample(clock.advance(INTERVAL));
        }
    }

    private static void assertAll(AdmissionController controller, BreakerState expected) {
        for (RequestType type : RequestType.values()) {
            assertEquals(expected, controller.state(type), type.name());
        }
    }

    /** An enforced controller whose breakers have just opened on a 1530 ms p99. */
    private AdmissionController opened(AdmissionSettings settings) {
        AdmissionController controller = controller(settings);
        latency.set(1530);
        sample(controller, settings.openAfterBreaches());
        assertAll(controller, BreakerState.OPEN);
        return controller;
    }

    /** An enforced controller whose breakers have just gone half-open after a cool-down. */
    private AdmissionController halfOpened(AdmissionSettings settings) {
        AdmissionController controller = opened(settings);
        controller.sample(clock.advance(COOL_DOWN));
        assertAll(controller, BreakerState.HALF_OPEN);
        return controller;
    }

    @Test
    void closedOpensAfterNConsecutiveBreachedSamples() {
        AdmissionController controller = controller(enforced());
        latency.set(1530);
        sample(controller, 2);
        assertAll(controller, BreakerState.CLOSED);
        latency.set(200);
        sample(controller, 1);
        latency.set(1530);
        sample(controller, 2);
        assertAll(controller, BreakerState.CLOSED);
        assertTrue(controller.admit(RequestType.NEW_CONNECTION).admitted());

        sample(controller, 1);
        assertAll(controller, BreakerState.OPEN);
    }

    @Test
    void openRejectsEveryTypeNamingTheSignal() {
        AdmissionController controller = opened(enforced());
        for (RequestType type : RequestType.values()) {
            AdmissionDecision decision = controller.admit(type);
            assertFalse(decision.admitted());
            assertEquals(LATENCY_REJECTION, decision.rejectMessage());
        }
        controller.admit(RequestType.NEW_PRODUCER);
        assertEquals(2, controller.rejections(RequestType.NEW_PRODUCER));
        assertEquals(1, controller.rejections(RequestType.METADATA));
        assertEquals(0, controller.wouldBeRejections(RequestType.NEW_PRODUCER));
    }

    @Test
    void openGoesHalfOpenAtTheFirstSampleAfterTheCoolDown() {
        AdmissionController controller = opened(enforced());
        controller.sample(clock.advance(COOL_DOWN.minusMillis(1)));
        assertAll(controller, BreakerState.OPEN);
        // Still breached, but that was measured while open: probe anyway.
        controller.sample(clock.advance(Duration.ofMillis(1)));
        assertAll(controller, BreakerState.HALF_OPEN);
    }

    @Test
    void halfOpenClosesAfterMHealthySamples() {
        AdmissionController controller = halfOpened(enforced());
        latency.set(900);
        sample(controller, 2);
        assertAll(controller, BreakerState.HALF_OPEN);
        sample(controller, 1);
        assertAll(controller, BreakerState.CLOSED);
        for (int i = 0; i < 20; i++) {
            assertTrue(controller.admit(RequestType.NEW_CONSUMER).admitted());
        }
    }

    @Test
    void halfOpenReopensOnABreachedSampleWithAFreshCoolDown() {
        AdmissionController controller = halfOpened(enforced());
        latency.set(900);
        sample(controller, 2);
        latency.set(2000);
        sample(controller, 1);
        assertAll(controller, BreakerState.OPEN);
        assertEquals(
                "Sluice admission control: upstream_latency_p99 2000 ms > 1000 ms; retry later",
                controller.admit(RequestType.NEW_CONNECTION).rejectMessage());

        latency.set(100);
        controller.sample(clock.advance(COOL_DOWN.minusMillis(1)));
        assertAll(controller, BreakerState.OPEN);
        controller.sample(clock.advance(Duration.ofMillis(1)));
        assertAll(controller, BreakerState.HALF_OPEN);
    }

    @Test
    void halfOpenAdmitsTheConfiguredSharePerType() {
        AdmissionController controller = halfOpened(enforced());
        int admitted = 0;
        for (int i = 0; i < 100; i++) {
            AdmissionDecision decision = controller.admit(RequestType.NEW_PRODUCER);
            if (i == 0) {
                assertTrue(decision.admitted(), "the first request after half-opening probes");
            }
            admitted += decision.admitted() ? 1 : 0;
            if (!decision.admitted()) {
                assertEquals(LATENCY_REJECTION, decision.rejectMessage());
            }
        }
        assertEquals(10, admitted);
        assertEquals(90, controller.rejections(RequestType.NEW_PRODUCER));
        // Each type has its own breaker and so its own first probe.
        assertTrue(controller.admit(RequestType.NEW_CONSUMER).admitted());

        assertEquals(25, admissions(controller, 0.25, 100));
        assertEquals(0, admissions(controller, 0, 50));
        assertEquals(50, admissions(controller, 1, 50));
    }

    private static int admissions(AdmissionController controller, double share, int requests) {
        AdmissionSettings s = controller.settings();
        controller.update(new AdmissionSettings(
                s.mode(),
                s.thresholds(),
                s.sampleIntervalMillis(),
                s.openAfterBreaches(),
                s.coolDownMillis(),
                share,
                s.closeAfterHealthy()));
        int admitted = 0;
        for (int i = 0; i < requests; i++) {
            admitted += controller.admit(RequestType.METADATA).admitted() ? 1 : 0;
        }
        return admitted;
    }

    @Test
    void theWorstBreachIsNamed() {
        AdmissionController controller = controller(enforced());
        cpu.set(0.95);
        sample(controller, 3);
        assertEquals(
                "Sluice admission control: cpu 0.95 > 0.9; retry later",
                controller.admit(RequestType.NEW_CONNECTION).rejectMessage());

        // 1530/1000 is further over than 0.95/0.9.
        latency.set(1530);
        sample(controller, 1);
        assertEquals(
                LATENCY_REJECTION, controller.admit(RequestType.NEW_CONNECTION).rejectMessage());
        Breach opening = controller.status().recentTransitions().get(0).breach();
        assertEquals(new Breach(Signal.CPU, 0.95, 0.9), opening);
    }

    @Test
    void monitorOnlyCountsWouldBeRejectionsButAdmitsEverything() {
        AdmissionController controller = opened(AdmissionSettings.DEFAULTS.withMode(AdmissionMode.MONITOR_ONLY));
        for (int i = 0; i < 5; i++) {
            assertSame(AdmissionDecision.ADMIT, controller.admit(RequestType.NEW_CONNECTION));
        }
        assertEquals(5, controller.wouldBeRejections(RequestType.NEW_CONNECTION));
        assertEquals(0, controller.rejections(RequestType.NEW_CONNECTION));

        // Half-open: probes are admitted anyway, the rest would have been rejected.
        controller.sample(clock.advance(COOL_DOWN));
        assertAll(controller, BreakerState.HALF_OPEN);
        for (int i = 0; i < 10; i++) {
            assertTrue(controller.admit(RequestType.METADATA).admitted());
        }
        assertEquals(9, controller.wouldBeRejections(RequestType.METADATA));

        assertEquals(5, controller.status().breaker(RequestType.NEW_CONNECTION).wouldBeRejections());
    }

    @Test
    void aNewModeAppliesToTheVeryNextRequest() {
        AdmissionController controller = opened(AdmissionSettings.DEFAULTS.withMode(AdmissionMode.MONITOR_ONLY));
        assertTrue(controller.admit(RequestType.NEW_PRODUCER).admitted());
        controller.update(controller.settings().withMode(AdmissionMode.ENFORCED));
        assertFalse(controller.admit(RequestType.NEW_PRODUCER).admitted());
        controller.update(controller.settings().withMode(AdmissionMode.DISABLED));
        assertTrue(controller.admit(RequestType.NEW_PRODUCER).admitted());
    }

    @Test
    void disabledAdmitsEverythingAndHoldsBreakersClosed() {
        AdmissionController controller = controller(AdmissionSettings.DEFAULTS);
        latency.set(5000);
        sample(controller, 10);
        assertAll(controller, BreakerState.CLOSED);
        assertSame(AdmissionDecision.ADMIT, controller.admit(RequestType.NEW_CONNECTION));
        assertEquals(0, controller.wouldBeRejections(RequestType.NEW_CONNECTION));
        // Signals are still read, so an operator sees what enabling would do.
        SignalReading reading = controller.status().signal(Signal.UPSTREAM_LATENCY_P99);
        assertEquals(new SignalReading(5000, 1000.0, true), reading);
    }

    @Test
    void disablingClosesOpenBreakersAtTheNextSampleAndForgetsTheirCounts() {
        AdmissionController controller = opened(enforced());
        controller.update(controller.settings().withMode(AdmissionMode.DISABLED));
        sample(controller, 1);
        assertAll(controller, BreakerState.CLOSED);
        Transition last = controller
                .status()
                .recentTransitions()
                .get(controller.status().recentTransitions().size() - 1);
        assertEquals(BreakerState.OPEN, last.from());
        assertEquals(BreakerState.CLOSED, last.to());
        assertNull(last.breach());

        controller.update(controller.settings().withMode(AdmissionMode.ENFORCED));
        sample(controller, 2);
        assertAll(controller, BreakerState.CLOSED);
        sample(controller, 1);
        assertAll(controller, BreakerState.OPEN);
    }

    @Test
    void aLowerThresholdOpensFromTheNextSamples() {
        AdmissionController controller = controller(enforced());
        latency.set(800);
        sample(controller, 5);
        assertAll(controller, BreakerState.CLOSED);
        controller.update(controller.settings().withThreshold(Signal.UPSTREAM_LATENCY_P99, 500.0));
        sample(controller, 3);
        assertAll(controller, BreakerState.OPEN);
        assertEquals(
                "Sluice admission control: upstream_latency_p99 800 ms > 500 ms; retry later",
                controller.admit(RequestType.METADATA).rejectMessage());
    }

    @Test
    void aHigherThresholdClosesAHalfOpenBreakerAfterMHealthySamples() {
        AdmissionController controller = halfOpened(enforced());
        // At 1530 ms the next sample would reopen; at a 2000 ms threshold it is healthy.
        controller.update(controller.settings().withThreshold(Signal.UPSTREAM_LATENCY_P99, 2000.0));
        sample(controller, 2);
        assertAll(controller, BreakerState.HALF_OPEN);
        sample(controller, 1);
        assertAll(controller, BreakerState.CLOSED);
    }

    @Test
    void newBreakerParametersApplyFromTheNextSample() {
        AdmissionController controller = controller(enforced());
        latency.set(1530);
        sample(controller, 1);
        AdmissionSettings s = controller.settings();
        controller.update(new AdmissionSettings(s.mode(), s.thresholds(), s.sampleIntervalMillis(), 2, 0, 0.5, 1));
        sample(controller, 1);
        assertAll(controller, BreakerState.OPEN);
        sample(controller, 1);
        assertAll(controller, BreakerState.HALF_OPEN);
        latency.set(10);
        sample(controller, 1);
        assertAll(controller, BreakerState.CLOSED);
    }

    @Test
    void unknownUnusedAndFailingSignalsNeverBreach() {
        SignalSource broken = now -> {
            throw new IllegalStateException("bean gone");
        };
        AdmissionController controller = new AdmissionController(
                enforced().withThreshold(Signal.UPSTREAM_LATENCY_P99, null),
                Map.of(Signal.CPU, cpu, Signal.HEAP, broken, Signal.UPSTREAM_LATENCY_P99, latency),
                clock);
        latency.set(60_000);
        sample(controller, 5);
        assertAll(controller, BreakerState.CLOSED);

        AdmissionStatus status = controller.status();
        assertTrue(Double.isNaN(status.signal(Signal.CPU).value()), "cpu not yet known");
        assertTrue(Double.isNaN(status.signal(Signal.HEAP).value()), "heap source throws");
        assertTrue(Double.isNaN(status.signal(Signal.EVENT_LOOP_LAG).value()), "no source");
        assertEquals(new SignalReading(60_000, null, false), status.signal(Signal.UPSTREAM_LATENCY_P99));
    }

    @Test
    void transitionsRecordTheCycleWithTimesAndCause() {
        AdmissionController controller = opened(enforced());
        Instant openedAt = clock.instant();
        controller.sample(clock.advance(COOL_DOWN));
        Instant halfOpenedAt = clock.instant();
        latency.set(100);
        sample(controller, 3);
        Instant closedAt = clock.instant();

        List<Transition> connect = controller.status().recentTransitions().stream()
                .filter(t -> t.type() == RequestType.NEW_CONNECTION)
                .toList();
        assertEquals(
                List.of(
                        new Transition(
                                RequestType.NEW_CONNECTION,
                                BreakerState.CLOSED,
                                BreakerState.OPEN,
                                openedAt,
                                new Breach(Signal.UPSTREAM_LATENCY_P99, 1530, 1000)),
                        new Transition(
                                RequestType.NEW_CONNECTION,
                                BreakerState.OPEN,
                                BreakerState.HALF_OPEN,
                                halfOpenedAt,
                                null),
                        new Transition(
                                RequestType.NEW_CONNECTION,
                                BreakerState.HALF_OPEN,
                                BreakerState.CLOSED,
                                closedAt,
                                null)),
                connect);
        assertEquals(
                closedAt,
                controller.status().breaker(RequestType.NEW_CONNECTION).since());
    }

    @Test
    void transitionHistoryIsBounded() {
        AdmissionSettings fast = new AdmissionSettings(
                AdmissionMode.ENFORCED, AdmissionSettings.DEFAULTS.thresholds(), 1000, 1, 0, 0.1, 1);
        AdmissionController controller = controller(fast);
        // Each round opens (breach), half-opens (cool-down 0) and closes (healthy): 3 changes x 4 types.
        for (int round = 0; round < 10; round++) {
            latency.set(1530);
            sample(controller, 2);
            latency.set(10);
            sample(controller, 1);
        }
        List<Transition> history = controller.status().recentTransitions();
        assertEquals(AdmissionController.TRANSITION_HISTORY, history.size());
        assertEquals(clock.instant(), history.get(history.size() - 1).at());
        assertEquals(BreakerState.CLOSED, history.get(history.size() - 1).to());
    }

    @Test
    void statusIsASnapshotOfEverything() {
        AdmissionController controller = controller(enforced());
        AdmissionStatus before = controller.status();
        assertNull(before.sampledAt());
        assertEquals(
                new BreakerStatus(BreakerState.CLOSED, FakeClock.START, 0, 0, null),
                before.breaker(RequestType.NEW_CONNECTION));
        assertEquals(
                List.of(
                        RequestType.NEW_CONNECTION,
                        RequestType.METADATA,
                        RequestType.NEW_PRODUCER,
                        RequestType.NEW_CONSUMER),
                List.copyOf(before.breakers().keySet()));

        latency.set(1530);
        cpu.set(0.5);
        sample(controller, 3);
        controller.admit(RequestType.NEW_CONNECTION);
        AdmissionStatus after = controller.status();
        assertEquals(clock.instant(), after.sampledAt());
        assertEquals(enforced(), after.settings());
        assertEquals(
                new BreakerStatus(BreakerState.OPEN, clock.instant(), 1, 0, LATENCY_REJECTION),
                after.breaker(RequestType.NEW_CONNECTION));
        assertEquals(new SignalReading(0.5, 0.9, false), after.signal(Signal.CPU));
        assertEquals(new SignalReading(1530, 1000.0, true), after.signal(Signal.UPSTREAM_LATENCY_P99));
        assertEquals(4, after.recentTransitions().size());
    }

    @Test
    void theStateGaugeRisesWithSeverity() {
        assertEquals(
                List.of(0, 2, 1),
                List.of(
                        BreakerState.CLOSED.metricValue(),
                        BreakerState.OPEN.metricValue(),
                        BreakerState.HALF_OPEN.metricValue()));
    }

    @Test
    void admitAllocatesNothing() {
        AdmissionController controller = controller(enforced());
        int[] next = {0};
        Runnable admitEachType = () -> controller.admit(TYPES[next[0]++ & 3]);
        assertEquals(0, AllocationMeter.bytesPerCall(admitEachType), "closed");
        latency.set(1530);
        sample(controller, 3);
        assertEquals(0, AllocationMeter.bytesPerCall(admitEachType), "open, rejecting");
        controller.sample(clock.advance(COOL_DOWN));
        assertEquals(0, AllocationMeter.bytesPerCall(admitEachType), "half-open");
        controller.update(controller.settings().withMode(AdmissionMode.MONITOR_ONLY));
        assertEquals(0, AllocationMeter.bytesPerCall(admitEachType), "monitor-only");
    }
}
