package io.sluice.server.it;

import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.accept.ConnectionRateGate;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.pulsar.PulsarTokens;
import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;
import org.apache.pulsar.client.impl.auth.AuthenticationBasic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits by role through Sluice in front of a broker with token and basic authentication
 * (docs/REFERENCE.md, "Limits by identity"): role alice is held to her limit while bob, on the same
 * namespace, is not slowed, whether the role comes from a token or a basic user; a token or a
 * password the broker does not accept is the broker's refusal; a role reconnecting in a loop gets
 * its rate of new connections, another role beside it unslowed.
 */
class PulsarRoleIT {

    private static final byte[] SECRET = "sluice-test-secret-of-32-bytes!!".getBytes(StandardCharsets.US_ASCII);

    /** Low enough that a broker on a busy test machine gives bob several times as much. */
    private static final double ALICE_RATE = 50;

    private static PulsarBroker broker;
    private static RunningSluice sluice;

    @BeforeAll
    static void start() {
        broker = PulsarBroker.builder()
                .tokenAuthentication(SECRET)
                .basicAuthentication()
                .start();
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
        try (PulsarClient alice = client(PulsarTokens.hs256(SECRET, "alice"));
                PulsarClient bob = client(PulsarTokens.hs256(SECRET, "bob"))) {
            aliceIsHeldWhileBobIsNot(alice, bob, "token");
        }
    }

    @Test
    void basicAuthenticationNamesTheRoleByItsUser() throws Exception {
        try (PulsarClient alice = basicClient("alice", "alice" + PulsarBroker.BASIC_PASSWORD_SUFFIX);
                PulsarClient bob = basicClient("bob", "bob" + PulsarBroker.BASIC_PASSWORD_SUFFIX)) {
            aliceIsHeldWhileBobIsNot(alice, bob, "basic");
        }
    }

    @Test
    void aBasicPasswordTheBrokerRefusesIsTheBrokersRefusal() throws Exception {
        try (PulsarClient client = basicClient("alice", "wrong")) {
            PulsarClientException refused = assertThrows(
                    PulsarClientException.class,
                    () -> client.newProducer().topic(topic("wrong-basic")).create());
            assertFalse(String.valueOf(refused.getMessage()).contains("Sluice"), refused.getMessage());
        }
    }

    /** Floods as alice and bob side by side with alice's role limited: she is held to it, he is not slowed. */
    private static void aliceIsHeldWhileBobIsNot(PulsarClient alice, PulsarClient bob, String authentication)
            throws Exception {
        RoleFloods.aliceIsHeldWhileBobIsNot(
                sluice.server, alice, bob, topic("alice"), topic("bob"), ALICE_RATE, "[pulsar-role] " + authentication);
    }

    @Test
    void aTokenTheBrokerRefusesIsTheBrokersRefusal() throws Exception {
        String forged =
                PulsarTokens.hs256("another-secret-another-secret-32".getBytes(StandardCharsets.US_ASCII), "alice");
        try (PulsarClient client = client(forged)) {
            PulsarClientException refused = assertThrows(
                    PulsarClientException.class,
                    () -> client.newProducer().topic(topic("forged")).create());
            assertTrue(
                    refused instanceof PulsarClientException.AuthenticationException
                            || String.valueOf(refused.getMessage()).contains("Authentication"),
                    String.valueOf(refused));
            assertFalse(String.valueOf(refused.getMessage()).contains("Sluice"), refused.getMessage());
        }
    }

    @Test
    void aRoleReconnectingInALoopGetsItsRateOfNewConnectionsAndAnotherRoleIsNotSlowed() throws Exception {
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.ROLE, "looping"), Limit.connections(new EventRate(10.0, 1.0))));
        long refusedBefore = refused();
        InetSocketAddress port = new InetSocketAddress("127.0.0.1", sluice.server.proxyPort());
        CompletableFuture<ConnectStorm.Result> beside = CompletableFuture.supplyAsync(() -> {
            try {
                return ConnectStorm.run(
                        port,
                        "127.0.0.1",
                        null,
                        12,
                        Duration.ofSeconds(3),
                        PulsarHandshake.withToken(PulsarTokens.hs256(SECRET, "steady")));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ConnectStorm.Result loop = ConnectStorm.run(
                port,
                "127.0.0.1",
                null,
                150,
                Duration.ofSeconds(3),
                PulsarHandshake.withToken(PulsarTokens.hs256(SECRET, "looping")));
        ConnectStorm.Result other = beside.get();
        System.out.println("[pulsar-role] a role reconnecting in a loop: " + loop + ", another role: " + other);

        // Charged once the broker accepted the role: over the rate, closed before its CONNECTED reaches the client.
        double expected = loop.expected(10, 1);
        assertTrue(
                Math.abs(loop.admitted() - expected) <= expected * 0.1 + 1,
                "admitted " + loop.admitted() + " of " + loop.attempts() + " in " + loop.spanSeconds() + " s, expected "
                        + expected + " +-10 %");
        assertEquals(loop.closed(), refused() - refusedBefore, "the rest closed as over the rate");
        assertEquals(12, other.admitted(), "the role beside it is within its own rate");
        assertTrue(other.slowestSeconds() < 1.0, "and not slowed: " + other.slowestSeconds() + " s");
    }

    private static long refused() {
        return sluice.server.stats().refusedConnections().getOrDefault(ConnectionRateGate.REASON, 0L);
    }

    /** Not PublishQuotaIT's: its class starts the shared broker, which this test does not need. */
    private static String topic(String name) {
        return "persistent://public/default/" + name + "-" + System.nanoTime();
    }

    private static PulsarClient basicClient(String user, String password) throws PulsarClientException {
        return PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .authentication(AuthenticationFactory.create(
                        AuthenticationBasic.class.getName(),
                        "{\"userId\":\"" + user + "\",\"password\":\"" + password + "\"}"))
                .operationTimeout(20, TimeUnit.SECONDS)
                .build();
    }

    private static PulsarClient client(String token) throws PulsarClientException {
        return PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .authentication(AuthenticationFactory.token(token))
                .operationTimeout(20, TimeUnit.SECONDS)
                .build();
    }
}
