package io.sluice.server.it;

import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionJson;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.BreakerState;
import io.sluice.admission.RequestType;
import io.sluice.admission.Signal;
import io.sluice.admission.Transition;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Admission control with the real broker: a slow upstream opens the breakers, recovery closes them. */
class AdmissionIT {

    private static final PulsarBroker broker = PulsarBroker.shared();

    private static AdmissionSettings settings(String json) {
        return AdmissionJson.parseSettings(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFrozenBrokerOpensTheBreakerNewProducersAreRefusedUntilRecoveryAndExistingOnesKeepSending() throws Exception {
        AdmissionSettings enforced = settings("{\"mode\":\"enforced\",\"thresholds\":{\"cpu\":null,\"heap\":null,"
                + "\"direct_memory\":null,\"event_loop_lag\":null,\"upstream_connect_failures\":null,"
                + "\"upstream_latency_p99\":500},\"sampleIntervalMillis\":250,\"openAfterBreaches\":1,"
                + "\"coolDownMillis\":2000,\"halfOpenAdmitShare\":0.5,\"closeAfterHealthy\":2}");
        try (RunningSluice sluice = RunningSluice.frontProxy(broker, enforced);
                PulsarClient existing = PulsarClient.builder()
                        .serviceUrl(sluice.serviceUrl)
                        .operationTimeout(60, TimeUnit.SECONDS)
                        .build()) {
            AdmissionController admission = sluice.server.services().admission();
            Producer<byte[]> producer = existing.newProducer()
                    .topic("persistent://public/default/admitted-" + System.nanoTime())
                    .enableBatching(false)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .create();
            AtomicLong acknowledged = new AtomicLong();
            AtomicBoolean running = new AtomicBoolean(true);
            Thread sender = new Thread(() -> {
                while (running.get()) {
                    producer.sendAsync(new byte[100]).thenRun(acknowledged::incrementAndGet);
                    sleep(20);
                }
            });
            sender.start();
            sleep(1_000);

            broker.freeze();
            sleep(2_000);
            broker.unfreeze();
            waitFor(() -> admission.state(RequestType.NEW_PRODUCER) == BreakerState.OPEN, 10);
            long opened = System.nanoTime();

            long ackedWhenOpened = acknowledged.get();
            CompletableFuture<PulsarClient> refusedClient = new CompletableFuture<>();
            CompletableFuture<Producer<byte[]>> refused = CompletableFuture.supplyAsync(() -> {
                try {
                    PulsarClient late = PulsarClient.builder()
                            .serviceUrl(sluice.serviceUrl)
                            .operationTimeout(60, TimeUnit.SECONDS)
                            .build();
                    refusedClient.complete(late);
                    return late.newProducer()
                            .topic("persistent://public/default/late-" + System.nanoTime())
                            .create();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            waitFor(
                    () -> admission.rejections(RequestType.NEW_CONNECTION)
                                    + admission.rejections(RequestType.METADATA)
                                    + admission.rejections(RequestType.NEW_PRODUCER)
                            > 0,
                    10);
            assertFalse(refused.isDone(), "the new producer is held off while the breaker is open");
            sleep(1_000);
            assertTrue(acknowledged.get() > ackedWhenOpened + 20, "the existing producer keeps sending");

            Producer<byte[]> late = refused.get(60, TimeUnit.SECONDS);
            long admittedAfterMillis = (System.nanoTime() - opened) / 1_000_000;
            assertEquals(BreakerState.CLOSED, admission.state(RequestType.NEW_PRODUCER));
            late.send(new byte[1]);
            running.set(false);
            sender.join();

            List<Transition> cycle = admission.status().recentTransitions().stream()
                    .filter(t -> t.type() == RequestType.NEW_PRODUCER)
                    .toList();
            Instant start = cycle.get(0).at();
            System.out.println("admission: PRODUCER breaker cycle (ms after it opened):");
            for (Transition t : cycle) {
                System.out.printf(
                        "  +%5d ms %s -> %s %s%n",
                        Duration.between(start, t.at()).toMillis(),
                        t.from(),
                        t.to(),
                        t.breach() == null ? "" : t.breach().describe());
            }
            System.out.printf(
                    "admission: refused client got its producer %d ms after the breaker opened; "
                            + "rejections connect=%d lookup=%d producer=%d%n",
                    admittedAfterMillis,
                    admission.rejections(RequestType.NEW_CONNECTION),
                    admission.rejections(RequestType.METADATA),
                    admission.rejections(RequestType.NEW_PRODUCER));
            assertTrue(cycle.stream().anyMatch(t -> t.to() == BreakerState.OPEN));
            assertTrue(cycle.stream().anyMatch(t -> t.to() == BreakerState.HALF_OPEN));
            assertEquals(BreakerState.CLOSED, cycle.get(cycle.size() - 1).to());
            refusedClient.get().close();
        }
    }

    @Test
    void monitorOnlyCountsWouldBeRejectionsButRefusesNothingAndThresholdsChangeLive() throws Exception {
        AdmissionSettings monitor = settings("{\"mode\":\"monitor_only\",\"thresholds\":{\"cpu\":null,\"heap\":null,"
                + "\"direct_memory\":null,\"event_loop_lag\":null,\"upstream_connect_failures\":null,"
                + "\"upstream_latency_p99\":0.001},\"sampleIntervalMillis\":200,\"openAfterBreaches\":1,"
                + "\"coolDownMillis\":1000,\"closeAfterHealthy\":2}");
        try (RunningSluice sluice = RunningSluice.frontProxy(broker, monitor);
                PulsarClient client =
                        PulsarClient.builder().serviceUrl(sluice.serviceUrl).build()) {
            AdmissionController admission = sluice.server.services().admission();
            Producer<byte[]> first = client.newProducer()
                    .topic("persistent://public/default/monitor-a-" + System.nanoTime())
                    .create();
            for (int i = 0; i < 20; i++) {
                first.send(new byte[10]);
            }
            waitFor(() -> admission.state(RequestType.NEW_PRODUCER) == BreakerState.OPEN, 10);
            Producer<byte[]> second = client.newProducer()
                    .topic("persistent://public/default/monitor-b-" + System.nanoTime())
                    .create();
            second.send(new byte[10]);
            assertTrue(admission.wouldBeRejections(RequestType.NEW_PRODUCER) > 0, "counted as would-be rejections");
            assertEquals(0, admission.rejections(RequestType.NEW_PRODUCER), "monitor_only refuses nothing");

            // Raised live: the next samples are healthy, so the breaker half-opens after its cool-down and closes.
            admission.update(AdmissionJson.parseSettings(
                    "{\"thresholds\":{\"upstream_latency_p99\":60000}}".getBytes(StandardCharsets.UTF_8),
                    admission.settings()));
            assertEquals(60000, admission.settings().threshold(Signal.UPSTREAM_LATENCY_P99));
            waitFor(() -> admission.state(RequestType.NEW_PRODUCER) == BreakerState.CLOSED, 10);
        }
    }

    private static void waitFor(BooleanSupplier condition, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            sleep(50);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
