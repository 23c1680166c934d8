package io.sluice.server.it;

import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testing.ProxyHeaders;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Pulsar client behind a load balancer that writes the PROXY protocol header (a relay in
 * the test), through Sluice with {@code --proxy-protocol optional --proxy-protocol-from
 * 127.0.0.1/32} to a real broker: the address the header names is the one {@code
 * /api/v1/throttled} shows, for a v1 and a v2 header; a client without one keeps its socket's; a
 * header from a peer outside the trusted block closes the connection and is counted.
 */
class PulsarProxyProtocolIT implements ProxyProtocolContract {

    private static final PulsarBroker broker = PulsarBroker.shared();
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

    @Test
    void aHeaderFromAnUntrustedPeerClosesTheConnection() throws Exception {
        long before = refusedUntrusted();
        assertEquals(
                -1,
                ProxyHeaders.answerToAHeaderFrom("127.0.0.3", new InetSocketAddress("127.0.0.1", sluice.proxyPort())),
                "closed without an answer");
        assertEquals(before + 1, refusedUntrusted());
    }

    private static long refusedUntrusted() {
        return sluice.stats().refusedConnections().getOrDefault("proxy_protocol_untrusted", 0L);
    }

    /**
     * A producer through a relay that writes {@code header} sends faster than its topic's limit:
     * while its sends are held, {@code /api/v1/throttled} names its connection by {@code address}.
     */
    @Override
    public void assertThrottledAs(Function<Socket, byte[]> header, String address) throws Exception {
        String topic = "persistent://public/default/proxied-" + System.nanoTime();
        sluice.limits()
                .update(d -> d.withLimit(
                        new ScopeRef(PulsarScopes.TOPIC, topic),
                        LimitsJson.parseLimit(
                                "{\"publish\":{\"messagesPerSecond\":2}}".getBytes(StandardCharsets.UTF_8))));
        try (TcpTee balancer = new TcpTee(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        "127.0.0.1",
                        sluice.proxyPort(),
                        header);
                PulsarClient client = PulsarClient.builder()
                        .serviceUrl("pulsar://127.0.0.1:" + balancer.port())
                        .operationTimeout(30, TimeUnit.SECONDS)
                        .build();
                Producer<byte[]> producer = client.newProducer()
                        .topic(topic)
                        .enableBatching(false)
                        .sendTimeout(0, TimeUnit.SECONDS)
                        .create()) {
            for (int i = 0; i < 40; i++) {
                producer.sendAsync(("m" + i).getBytes(StandardCharsets.UTF_8));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String throttled = "";
            while (System.nanoTime() < deadline && !throttled.contains(topic)) {
                throttled = throttled();
                Thread.sleep(100);
            }
            assertTrue(throttled.contains(topic), "the producer is throttled: " + throttled);
            assertTrue(throttled.contains(address), "named by " + address + ": " + throttled);
        }
    }

    private static String throttled() throws Exception {
        HttpURLConnection http =
                (HttpURLConnection) URI.create("http://127.0.0.1:" + sluice.adminPort() + "/api/v1/throttled")
                        .toURL()
                        .openConnection();
        try (InputStream in = http.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            http.disconnect();
        }
    }
}
