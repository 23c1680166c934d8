package io.sluice.server.it.kafka;

import org.apache.kafka.common.message.MetadataResponseData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
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
 * Metadata storms through Sluice to a real cluster, under 20 requests a second with a burst of 1 s:
 * a client that writes 300 Metadata requests at once, ignoring every throttle time, gets the
 * broker's answers at the rate (every answer is the broker's, so the broker saw no more), the
 * answers over it carry {@code throttle_time_ms}, and a calm client beside it is not slowed. The
 * rate is a client id's ({@code kafka.clients "*"}), or a prefix's, which a request pays for each
 * topic it names under it: the same client id asking about another topic is not slowed then.
 */
class KafkaRequestRateIT {

    private static final double RATE = 20;
    private static final String LIMIT = "{\"requests\": {\"perSecond\": " + RATE + ", \"burstSeconds\": 1}}";
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

    @AfterEach
    void unlimit() {
        sluice.deleteLimit("clients", "*");
        sluice.deleteLimit("prefixes", "hot.");
    }

    @Test
    void aMetadataStormGetsTheRateWithThrottleTimesAndAnotherClientIdIsNotSlowed() throws Exception {
        sluice.limitClient("*", LIMIT);

        stormBesideACalmClient("storm", List.of(), "calm", List.of());

        double events = 0;
        for (String line : sluice.metrics().split("\n")) {
            if (line.startsWith("sluice_throttle_events_total{") && line.contains("reason=\"work_requests\"")) {
                events += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        assertTrue(events >= 1, "the throttle counted");
    }

    @Test
    void aStormAboutOneTopicGetsItsPrefixsRateAndTheSameClientIdAskingAboutAnotherIsNotSlowed() throws Exception {
        sluice.putLimit("prefixes", "hot.", LIMIT);

        stormBesideACalmClient("orders-service", List.of("hot.orders"), "orders-service", List.of("cool.orders"));
    }

    /**
     * 300 Metadata requests about {@code topics} written at once under {@code clientId} for
     * {@link #STORM}, while a calm client asks about {@code calmTopics} under {@code calmClientId}:
     * the storm answered at {@link #RATE} with throttle times, the calm client not slowed.
     */
    private static void stormBesideACalmClient(
            String clientId, List<String> topics, String calmClientId, List<String> calmTopics) throws Exception {
        CompletableFuture<List<Long>> calm = CompletableFuture.supplyAsync(() -> calmClient(calmClientId, calmTopics));
        List<Integer> throttleTimes = new ArrayList<>();
        RawKafkaClient storm = new RawKafkaClient(sluice.kafkaPort);
        double seconds;
        try {
            storm.pipelineMetadata(clientId, 300, topics);
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
                "Kafka Metadata storm about %s over %.2f s at %.0f requests/s: %d of 300 answered (bound %.1f), %d"
                        + " with a throttle time; beside it %s about %s: %d requests, slowest %d ms%n",
                topics,
                seconds,
                RATE,
                answered,
                RATE + RATE * seconds + 1,
                throttled,
                calmClientId,
                calmTopics,
                calmMillis.size(),
                calmSlowest);

        assertTrue(
                answered <= RATE + RATE * seconds + 2,
                answered + " answers from the broker in " + seconds + " s at " + RATE + "/s and a burst of " + RATE);
        assertTrue(answered >= (RATE + RATE * STORM.toSeconds()) * 0.8, "but the rate: " + answered);
        assertTrue(
                throttled >= (answered - RATE) / 2 - 2,
                "an answer over the rate carries a throttle time, and the connection waits it out before the next,"
                        + " which is then within the rate: " + throttled + " of " + answered);
        assertEquals(20, calmMillis.size());
        // Each calm answer has no throttle time (calmClient checks it); the time bound, loose for a
        // busy two-core machine, is far under the seconds a share of the storm's bucket would wait.
        assertTrue(calmSlowest < 1_000, "the calm client is not slowed: " + calmSlowest + " ms");
    }

    /**
     * 20 Metadata requests about {@code topics} a calm client sends under {@code clientId}, one
     * each 100 ms; how long each took, in milliseconds.
     */
    private static List<Long> calmClient(String clientId, List<String> topics) {
        List<Long> millis = new ArrayList<>();
        try (RawKafkaClient calm = new RawKafkaClient(sluice.kafkaPort)) {
            for (int i = 0; i < 20; i++) {
                long sent = System.nanoTime();
                MetadataResponseData answer = calm.metadata(clientId, topics);
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
