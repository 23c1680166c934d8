package io.sluice.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An adaptive limit with stock clients against a real broker: a tenant whose ceiling is far above
 * what the broker takes floods it; the broker is then slowed, stopped for 900 ms and resumed for
 * 100 ms in turn, and the tenant's rate in force falls; once the broker runs freely again the flood
 * is held with reason {@code adaptive} while the rate climbs, and once the flood stops, the rate is
 * back at the ceiling within seconds. The target, 400 ms, is far above what the broker takes on a
 * busy build machine when it runs freely, and far below what the slowed broker takes.
 */
class AdaptiveLimitIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final double CEILING = 1_000_000;

    @Test
    void aSlowBrokerLowersTheRateAndItComesBackWhenTheBrokerRecovers() throws Exception {
        try (RunningSluice sluice = RunningSluice.frontProxy(broker);
                PulsarClient client = PulsarClient.builder()
                        .serviceUrl(sluice.serviceUrl)
                        .operationTimeout(60, TimeUnit.SECONDS)
                        .build()) {
            sluice.server
                    .limits()
                    .update(d -> d.withLimit(
                            new ScopeRef(PulsarScopes.TENANT, "public"),
                            PublishQuotaIT.limit("{\"publish\": {\"messagesPerSecond\": " + CEILING + ","
                                    + " \"burstSeconds\": 0.1, \"adaptive\": {\"targetLatencyMillis\": 400,"
                                    + " \"floorFraction\": 0.001}}}")));
            Producer<byte[]> bulk = client.newProducer()
                    .topic(PublishQuotaIT.topic("adaptive-bulk"))
                    .enableBatching(false)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .create();
            // 100 sends in flight at most: little queueing of its own in the broker.
            try (Flood flood = new Flood(bulk, 100, 100)) {
                Thread.sleep(3_000);
                double before = effectiveRate(sluice);

                double lowest = CEILING;
                long slowedFrom = flood.acknowledged();
                long slowStart = System.nanoTime();
                for (int slice = 0; slice < 8; slice++) {
                    broker.freeze();
                    Thread.sleep(900);
                    broker.unfreeze();
                    Thread.sleep(100);
                    lowest = Math.min(lowest, effectiveRate(sluice));
                }
                double slowedRate = (flood.acknowledged() - slowedFrom) / ((System.nanoTime() - slowStart) / 1e9);
                System.out.printf(
                        "adaptive: rate in force %.0f msg/s before, lowest %.0f while the broker was slowed (it passed"
                                + " %.0f msg/s)%n",
                        before, lowest, slowedRate);
                assertTrue(lowest < CEILING / 10 && lowest < before / 5, "the rate in force fell: lowest " + lowest);

                // The broker runs freely again: the flood, now faster than the lowered rate, is held by it
                // while the rate climbs back.
                boolean heldAsAdaptive = false;
                double afterwards = lowest;
                for (int check = 0; check < 10; check++) {
                    Thread.sleep(500);
                    heldAsAdaptive |= throttledReason(sluice).contains("\"adaptive\"");
                    afterwards = effectiveRate(sluice);
                }
                System.out.printf("adaptive: rate in force %.0f msg/s 5 s after the broker recovered%n", afterwards);
                assertTrue(heldAsAdaptive, "the flooding producer was held by the adaptive rate");
                assertTrue(afterwards > lowest, "the rate climbs back: " + lowest + " -> " + afterwards);
            }
            // A producer that sends now and then keeps the latency readings coming, quickly now.
            long recoverStart = System.nanoTime();
            double rate = 0;
            while (System.nanoTime() - recoverStart < TimeUnit.SECONDS.toNanos(30) && rate < CEILING) {
                bulk.send(new byte[100]);
                Thread.sleep(50);
                rate = effectiveRate(sluice);
            }
            double recoverySeconds = (System.nanoTime() - recoverStart) / 1e9;
            System.out.printf("adaptive: back at the ceiling %.1f s after the flood stopped%n", recoverySeconds);
            assertEquals(CEILING, rate, 1e-6, "back at the ceiling within 30 s");
            bulk.close();
        }
    }

    private static double effectiveRate(RunningSluice sluice) throws Exception {
        JsonNode scopes = get(sluice, "/api/v1/adaptive").get("scopes");
        for (JsonNode scope : scopes) {
            if (scope.get("scope").asText().equals("tenant")
                    && scope.get("name").asText().equals("public")) {
                return scope.get("effectiveRate").asDouble();
            }
        }
        return CEILING;
    }

    private static String throttledReason(RunningSluice sluice) throws Exception {
        return get(sluice, "/api/v1/throttled").toString();
    }

    private static JsonNode get(RunningSluice sluice, String path) throws Exception {
        HttpResponse<String> response = HTTP.send(
                HttpRequest.newBuilder(URI.create(sluice.adminUrl() + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }
}
