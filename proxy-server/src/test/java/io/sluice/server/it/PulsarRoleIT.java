package io.sluice.server.it;

import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.pulsar.PulsarTokens;
import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits by role through Sluice in front of a broker with token authentication (docs/REFERENCE.md,
 * "Limits by identity"): role alice is held to her limit while bob, on the same namespace, is not
 * slowed; a token the broker does not accept is the broker's refusal.
 */
class PulsarRoleIT {

    private static final byte[] SECRET = "sluice-test-secret-of-32-bytes!!".getBytes(StandardCharsets.US_ASCII);

    private static PulsarBroker broker;
    private static RunningSluice sluice;

    @BeforeAll
    static void start() {
        broker = PulsarBroker.builder().tokenAuthentication(SECRET).start();
        sluice = RunningSluice.frontProxy(broker);
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void aliceIsHeldToHerRoleLimitWhileBobOnTheSameNamespaceIsNot() throws Exception {
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.ROLE, "alice"),
                        PublishQuotaIT.limit("{\"publish\":{\"messagesPerSecond\":200}}")));
        try (PulsarClient alice = client(PulsarTokens.hs256(SECRET, "alice"));
                PulsarClient bob = client(PulsarTokens.hs256(SECRET, "bob"));
                Producer<byte[]> aliceProducer = alice.newProducer()
                        .topic(PublishQuotaIT.topic("alice"))
                        .enableBatching(false)
                        .create();
                Producer<byte[]> bobProducer = bob.newProducer()
                        .topic(PublishQuotaIT.topic("bob"))
                        .enableBatching(false)
                        .create();
                Flood aliceFlood = new Flood(aliceProducer, 100, 1000);
                Flood bobFlood = new Flood(bobProducer, 100, 1000)) {
            long from = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            long to = from + TimeUnit.SECONDS.toNanos(4);
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(to - System.nanoTime()) + 100);
            double aliceRate = aliceFlood.acknowledgedBetween(from, to) / 4.0;
            double bobRate = bobFlood.acknowledgedBetween(from, to) / 4.0;
            System.out.printf(
                    "[pulsar-role] role alice at 200 msg/s: %.1f msg/s; role bob unlimited beside her: %.1f msg/s%n",
                    aliceRate, bobRate);
            assertTrue(aliceRate >= 180 && aliceRate <= 220, "alice: " + aliceRate);
            assertTrue(bobRate > 3 * 200, "bob is not slowed by alice's limit: " + bobRate);
        } finally {
            sluice.server.limits().update(d -> d.withLimit(new ScopeRef(PulsarScopes.ROLE, "alice"), null));
        }
    }

    @Test
    void aTokenTheBrokerRefusesIsTheBrokersRefusal() throws Exception {
        String forged =
                PulsarTokens.hs256("another-secret-another-secret-32".getBytes(StandardCharsets.US_ASCII), "alice");
        try (PulsarClient client = client(forged)) {
            PulsarClientException refused = assertThrows(
                    PulsarClientException.class,
                    () -> client.newProducer()
                            .topic(PublishQuotaIT.topic("forged"))
                            .create());
            assertTrue(
                    refused instanceof PulsarClientException.AuthenticationException
                            || String.valueOf(refused.getMessage()).contains("Authentication"),
                    String.valueOf(refused));
            assertFalse(String.valueOf(refused.getMessage()).contains("Sluice"), refused.getMessage());
        }
    }

    private static PulsarClient client(String token) throws PulsarClientException {
        return PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .authentication(AuthenticationFactory.token(token))
                .operationTimeout(20, TimeUnit.SECONDS)
                .build();
    }
}
