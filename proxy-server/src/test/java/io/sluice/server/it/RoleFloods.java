package io.sluice.server.it;

import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Two Pulsar clients authenticated as roles alice and bob, flooding side by side through one Sluice. */
final class RoleFloods {

    private RoleFloods() {}

    /**
     * Limits role alice to {@code aliceLimit} msg/s on {@code server} and floods as both: alice is held
     * to her limit within 10 %, bob is not slowed by it. Prints the rates after {@code label}.
     */
    static void aliceIsHeldWhileBobIsNot(
            PulsarSluice server,
            PulsarClient alice,
            PulsarClient bob,
            String aliceTopic,
            String bobTopic,
            double aliceLimit,
            String label)
            throws Exception {
        ScopeRef aliceRole = new ScopeRef(PulsarScopes.ROLE, "alice");
        server.limits()
                .update(d -> d.withLimit(
                        aliceRole,
                        LimitsJson.parseLimit(("{\"publish\":{\"messagesPerSecond\":" + aliceLimit + "}}")
                                .getBytes(StandardCharsets.UTF_8))));
        try (Producer<byte[]> aliceProducer = alice.newProducer()
                        .topic(aliceTopic)
                        .enableBatching(false)
                        .create();
                // Batched, so that what bob gets is bounded by the broker, not by a round trip per message.
                Producer<byte[]> bobProducer = bob.newProducer().topic(bobTopic).create();
                Flood aliceFlood = new Flood(aliceProducer, 100, 1000);
                Flood bobFlood = new Flood(bobProducer, 100, 1000)) {
            // A broker just started takes seconds to come up to speed; the bucket's burst goes in the first second.
            long from = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            long to = from + TimeUnit.SECONDS.toNanos(5);
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(to - System.nanoTime()) + 100);
            double aliceRate = aliceFlood.acknowledgedBetween(from, to) / 5.0;
            double bobRate = bobFlood.acknowledgedBetween(from, to) / 5.0;
            System.out.printf(
                    "%s: role alice at %.0f msg/s: %.1f msg/s; role bob unlimited beside her: %.1f msg/s%n",
                    label, aliceLimit, aliceRate, bobRate);
            assertTrue(aliceRate >= aliceLimit * 0.9 && aliceRate <= aliceLimit * 1.1, "alice: " + aliceRate);
            assertTrue(bobRate > 2 * aliceLimit, "bob is not slowed by alice's limit: " + bobRate);
        } finally {
            server.limits().update(d -> d.withLimit(aliceRole, null));
        }
    }
}
