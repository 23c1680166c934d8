package io.sluice.server.it;

import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admin API with live traffic: what it reports while a producer is throttled, and limits across restarts. */
class AdminTrafficIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    private static HttpResponse<String> get(RunningSluice sluice, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(sluice.adminUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> put(RunningSluice sluice, String path, String json) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(sluice.adminUrl() + path))
                        .header("Content-Type", "application/json")
                        .PUT(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String await(RunningSluice sluice, String path, Predicate<String> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        String body;
        do {
            body = get(sluice, path).body();
            if (condition.test(body)) {
                return body;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(path + " never satisfied the condition; last: " + body);
    }

    @Test
    void aThrottledProducerIsListedAndCountedWhileItLastsAndDisappearsAfter() throws Exception {
        String local = "admin-throttled-" + System.nanoTime();
        String topic = "persistent://public/default/" + local;
        try (RunningSluice sluice = RunningSluice.frontProxy(broker);
                PulsarClient client =
                        PulsarClient.builder().serviceUrl(sluice.serviceUrl).build()) {
            assertEquals(200, get(sluice, "/readyz").statusCode());
            assertEquals(
                    200,
                    put(
                                    sluice,
                                    "/api/v1/limits/topics/persistent/public/default/" + local,
                                    "{\"publish\":{\"messagesPerSecond\":20}}")
                            .statusCode());
            Producer<byte[]> producer =
                    client.newProducer().topic(topic).enableBatching(false).create();
            for (int i = 0; i < 120; i++) {
                producer.sendAsync(new byte[10]);
            }
            String throttled = await(sluice, "/api/v1/throttled", body -> body.contains(topic))
                    .replaceAll("\\s", "");
            assertTrue(
                    throttled.contains("\"scope\":\"topic\"")
                            && throttled.contains("\"action\":\"delay\"")
                            && throttled.contains("\"reason\":\"publish_messages\""),
                    throttled);
            String metrics = get(sluice, "/metrics").body();
            assertTrue(
                    metrics.lines()
                            .anyMatch(line -> line.startsWith("sluice_throttle_events_total{")
                                    && line.contains("topic=\"" + topic + "\"")
                                    && line.contains("scope=\"topic\"")
                                    && line.contains("action=\"delay\"")
                                    && line.contains("reason=\"publish_messages\"")),
                    metrics);
            String topics = get(sluice, "/api/v1/topics").body();
            assertTrue(topics.contains(topic), topics);

            producer.flush();
            await(sluice, "/api/v1/throttled", body -> !body.contains(topic));
        }
    }

    @Test
    void limitsSurviveARestartAndAreEnforcedAgain() throws Exception {
        Path limits = dir.resolve("limits.json");
        String local = "admin-restart-" + System.nanoTime();
        String topic = "persistent://public/default/" + local;
        try (RunningSluice first = RunningSluice.frontProxy(broker, limits)) {
            assertEquals(
                    200,
                    put(
                                    first,
                                    "/api/v1/limits/topics/persistent/public/default/" + local,
                                    "{\"publish\":{\"messagesPerSecond\":50,\"burstSeconds\":0.1}}")
                            .statusCode());
        }
        try (RunningSluice second = RunningSluice.frontProxy(broker, limits);
                PulsarClient client =
                        PulsarClient.builder().serviceUrl(second.serviceUrl).build()) {
            assertTrue(get(second, "/api/v1/limits").body().contains(topic));
            Producer<byte[]> producer =
                    client.newProducer().topic(topic).enableBatching(false).create();
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                producer.sendAsync(new byte[10]);
            }
            producer.flush();
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds > 1.7, "100 messages at 50 msg/s take about 2 s, took " + seconds);
        }
    }
}
