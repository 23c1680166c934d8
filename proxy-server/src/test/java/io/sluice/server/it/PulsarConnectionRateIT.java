package io.sluice.server.it;

import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.accept.ConnectionRateGate;
import io.sluice.testing.ProxyHeaders;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Pulsar client reconnecting in a loop through Sluice to a real broker, under {@code ips "*"}
 * 10 new connections a second with a burst of 1 s: it gets the rate (rate x time + burst, +-10 %),
 * the connections over it are closed without reaching the broker, and another address beside it
 * is not slowed; behind a load balancer that writes the PROXY protocol header, two clients through
 * one balancer address are limited apart.
 */
class PulsarConnectionRateIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static final ScopeRef EACH_ADDRESS = new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME);
    private static PulsarSluice sluice;

    @BeforeAll
    static void start() throws Exception {
        sluice = PulsarSluice.behindABalancer(broker);
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
    }

    @AfterEach
    void unlimited() throws IOException {
        sluice.limits().update(limits -> limits.withLimit(EACH_ADDRESS, null));
    }

    private static void limitEachAddress(double perSecond) throws IOException {
        sluice.limits()
                .update(limits -> limits.withLimit(EACH_ADDRESS, Limit.connections(new EventRate(perSecond, 1.0))));
    }

    private static long refused() {
        return sluice.stats().refusedConnections().getOrDefault(ConnectionRateGate.REASON, 0L);
    }

    private static InetSocketAddress port() {
        return new InetSocketAddress("127.0.0.1", sluice.proxyPort());
    }

    @Test
    void aReconnectLoopGetsTheRateAndAnotherAddressIsNotSlowed() throws Exception {
        limitEachAddress(10);
        long refusedBefore = refused();
        long openedBefore = sluice.stats().acceptedConnections();
        CompletableFuture<ConnectStorm.Result> beside =
                CompletableFuture.supplyAsync(() -> storm("127.0.0.2", null, 12, Duration.ofSeconds(3)));
        ConnectStorm.Result loop =
                ConnectStorm.run(port(), "127.0.0.1", null, 300, Duration.ofSeconds(3), PulsarHandshake::connected);
        ConnectStorm.Result other = beside.get();
        System.out.println("Pulsar reconnect loop: " + loop + ", beside it: " + other);

        double expected = loop.expected(10, 1);
        assertTrue(
                Math.abs(loop.admitted() - expected) <= expected * 0.1,
                "admitted " + loop.admitted() + " of " + loop.attempts() + " in " + loop.spanSeconds() + " s, expected "
                        + expected + " +-10 %");
        assertEquals(loop.closed(), refused() - refusedBefore, "every other one closed as over the rate");
        assertEquals(
                loop.admitted() + other.admitted(),
                sluice.stats().acceptedConnections() - openedBefore,
                "only the admitted ones were opened (and reached the broker)");
        assertEquals(12, other.admitted(), "the address beside it is within its own rate");
        assertTrue(other.slowestSeconds() < 0.5, "and not slowed: " + other.slowestSeconds() + " s");
    }

    @Test
    void behindTheProxyProtocolTwoClientsThroughOneBalancerAreLimitedApart() throws Exception {
        limitEachAddress(5);
        long refusedBefore = refused();
        CompletableFuture<ConnectStorm.Result> second = CompletableFuture.supplyAsync(() -> storm(
                "127.0.0.1",
                ProxyHeaders.header(HAProxyProtocolVersion.V2, "203.0.113.2", 40000, sluice.proxyPort()),
                60,
                Duration.ofSeconds(2)));
        ConnectStorm.Result first = ConnectStorm.run(
                port(),
                "127.0.0.1",
                ProxyHeaders.header(HAProxyProtocolVersion.V1, "203.0.113.1", 40000, sluice.proxyPort()),
                60,
                Duration.ofSeconds(2),
                PulsarHandshake::connected);
        ConnectStorm.Result other = second.get();
        System.out.println("Two clients through one balancer: " + first + ", " + other);

        for (ConnectStorm.Result client : new ConnectStorm.Result[] {first, other}) {
            double expected = client.expected(5, 1);
            assertTrue(
                    Math.abs(client.admitted() - expected) <= expected * 0.1,
                    "admitted " + client.admitted() + " in " + client.spanSeconds() + " s, expected " + expected
                            + " +-10 %, each client address its own bucket");
        }
        assertEquals(first.closed() + other.closed(), refused() - refusedBefore);
    }

    private static ConnectStorm.Result storm(String local, byte[] header, int attempts, Duration over) {
        try {
            return ConnectStorm.run(port(), local, header, attempts, over, PulsarHandshake::connected);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
