package io.sluice.server.it.kafka;

import org.apache.kafka.common.message.MetadataResponseData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Metadata storm through Sluice to a real cluster, under {@code kafka.clients "*"} 20 requests a
 * second with a burst of 1 s: a client that writes 300 Metadata requests at once, ignoring every
 * throttle time, gets the broker's answers at the rate (every answer is the broker's, so the broker
 * saw no more), the answers over it carry {@code throttle_time_ms}, and another client id beside it
 * is not slowed.
 */
class KafkaRequestRateIT {

    private static final double RATE = 20;
    private static final Duration STORM = Duration.ofSeconds(3);

    private static SluiceForKafka sluice;

    @BeforeAll
    static void start() {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap());
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    @Test
    void aMetadataStormGetsTheRateWithThrottleTimesAndAnotherClientIdIsNotSlowed() throws Exception {
        sluice.limitClient("*", "{\"requests\": {\"perSecond\": " + RATE + ", \"burstSeconds\": 1}}");
        CompletableFuture<List<Long>> calm = CompletableFuture.supplyAsync(KafkaRequestRateIT::calmClient);
        List<Integer> throttleTimes = new ArrayList<>();
        RawKafkaClient storm = new RawKafkaClient(sluice.kafkaPort);
        double seconds;
        try {
            storm.pipelineMetadata("storm", 300);
            long start = System.nanoTime();
            CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
                try {
                    while (true) {
                        MetadataResponseData answer = storm.readMetadata();
                        synchronized (throttleTimes) {
                            throttleTimes.add(answer.throttleTimeMs());
                        }
                    }
                } catch (IOException closed) {
                    // The storm is over.
                }
            });
            Thread.sleep(STORM.toMillis());
            storm.close();
            seconds = (System.nanoTime() - start) / 1e9;
            reader.join();
        } finally {
            storm.close();
        }
        List<Long> calmMillis = calm.get();
        int answered;
        int throttled;
        synchronized (throttleTimes) {
            answered = throttleTimes.size();
            throttled =
                    (int) throttleTimes.stream().filter(millis -> millis > 0).count();
        }
        long calmSlowest = calmMillis.stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
        System.out.printf(
                "Kafka Metadata storm over %.2f s at %.0f requests/s: %d of 300 answered (bound %.1f), %d with a"
                        + " throttle time; the client id beside it: %d requests, slowest %d ms%n",
                seconds, RATE, answered, RATE + RATE * seconds + 1, throttled, calmMillis.size(), calmSlowest);

        assertTrue(
                answered <= RATE + RATE * seconds + 2,
                answered + " answers from the broker in " + seconds + " s at " + RATE + "/s and a burst of " + RATE);
        assertTrue(answered >= (RATE + RATE * STORM.toSeconds()) * 0.8, "but the rate: " + answered);
        assertTrue(
                throttled >= (answered - RATE) / 2 - 2,
                "an answer over the rate carries a throttle time, and the connection waits it out before the next,"
                        + " which is then within the rate: " + throttled + " of " + answered);
        assertEquals(20, calmMillis.size());
        assertTrue(calmSlowest < 500, "the client id beside it is not slowed: " + calmSlowest + " ms");
        double events = 0;
        for (String line : sluice.metrics().split("\n")) {
            if (line.startsWith("sluice_throttle_events_total{") && line.contains("reason=\"work_requests\"")) {
                events += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        assertTrue(events >= 1, "the throttle counted");
    }

    /** 20 Metadata requests a client id of its own sends, one each 100 ms; how long each took, in milliseconds. */
    private static List<Long> calmClient() {
        List<Long> millis = new ArrayList<>();
        try (RawKafkaClient calm = new RawKafkaClient(sluice.kafkaPort)) {
            for (int i = 0; i < 20; i++) {
                long sent = System.nanoTime();
                MetadataResponseData answer = calm.metadata("calm");
                millis.add((System.nanoTime() - sent) / 1_000_000);
                assertEquals(0, answer.throttleTimeMs());
                Thread.sleep(100);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return millis;
    }
}
