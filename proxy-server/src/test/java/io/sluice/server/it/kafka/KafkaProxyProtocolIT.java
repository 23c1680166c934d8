package io.sluice.server.it.kafka;

import io.sluice.server.it.ProxyHeaders;
import io.sluice.server.it.TcpTee;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stock Kafka clients behind a load balancer that writes the PROXY protocol header (a relay in
 * front of each of Sluice's ports, Sluice listening on 127.0.0.2 and advertising 127.0.0.1), through
 * Sluice with {@code --proxy-protocol optional --proxy-protocol-from 127.0.0.1/32} to a real
 * cluster: the address the header names is the one {@code /api/v1/throttled} shows, for a v1 and a
 * v2 header; a client without one keeps its socket's; a header from a peer outside the trusted
 * block closes the connection and is counted.
 */
class KafkaProxyProtocolIT {

    private static final AtomicReference<Function<Socket, byte[]>> HEADER = new AtomicReference<>(client -> null);
    private static final List<TcpTee> balancers = new ArrayList<>();
    private static BrokersOnlySluiceReaches brokers;
    private static SluiceForKafka sluice;
    private static KafkaClients clients;

    @BeforeAll
    static void start() throws IOException {
        brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.startOn(
                "127.0.0.2",
                brokers,
                brokers.plaintextBootstrap(),
                "--proxy-protocol",
                "optional",
                "--proxy-protocol-from",
                "127.0.0.1/32");
        balancers.add(balancer(sluice.kafkaPort));
        for (int node : brokers.cluster.nodeIds()) {
            balancers.add(balancer(sluice.nodePortBase + node));
        }
        clients = new KafkaClients(sluice.bootstrap());
    }

    @AfterAll
    static void stop() throws IOException {
        for (TcpTee balancer : balancers) {
            balancer.close();
        }
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    private static TcpTee balancer(int port) throws IOException {
        return new TcpTee(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                "127.0.0.2",
                port,
                client -> HEADER.get().apply(client));
    }

    @Test
    void aV1HeadersClientIsTheOneThrottled() throws Exception {
        assertThrottledAs(client -> ProxyHeaders.v1("203.0.113.7", client), "/203.0.113.7:");
    }

    @Test
    void aV2HeadersClientIsTheOneThrottled() throws Exception {
        assertThrottledAs(client -> ProxyHeaders.v2("2001:db8::7", client), "/[2001:db8:0:0:0:0:0:7]:");
    }

    @Test
    void withoutAHeaderTheSocketsPeerIsTheClient() throws Exception {
        assertThrottledAs(client -> null, "/127.0.0.1:");
    }

    @Test
    void aHeaderFromAnUntrustedPeerClosesTheConnection() throws Exception {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.3"), 0));
            socket.connect(new InetSocketAddress("127.0.0.2", sluice.kafkaPort));
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(ProxyHeaders.v1("203.0.113.9", socket));
            out.flush();
            InputStream in = socket.getInputStream();
            assertEquals(-1, in.read(), "closed without an answer");
        }
        assertTrue(
                sluice.metrics()
                        .lines()
                        .anyMatch(line -> line.startsWith("sluice_connections_refused_total{")
                                && line.contains("reason=\"proxy_protocol_untrusted\"")
                                && Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)) == 1),
                "counted once");
    }

    /**
     * A producer whose connections carry {@code header} sends faster than its topic's limit: while
     * its records are held, {@code /api/v1/throttled} names its connection by {@code address}.
     */
    private static void assertThrottledAs(Function<Socket, byte[]> header, String address) throws Exception {
        HEADER.set(header);
        String topic = KafkaClientsIT.unique("proxied");
        clients.createTopics(1, topic);
        sluice.limit(topic, "{\"publish\": {\"messagesPerSecond\": 2}, \"onExceed\": \"delay\"}");
        KafkaProducer<String, String> producer =
                clients.producer(ProducerConfig.LINGER_MS_CONFIG, "0", ProducerConfig.BATCH_SIZE_CONFIG, "16");
        try {
            for (int i = 0; i < 40; i++) {
                producer.send(new ProducerRecord<>(topic, "r" + i));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String throttled = "";
            while (System.nanoTime() < deadline && !throttled.contains(topic)) {
                throttled = sluice.get("/api/v1/throttled").body();
                Thread.sleep(100);
            }
            assertTrue(throttled.contains(topic), "the producer is throttled: " + throttled);
            assertTrue(throttled.contains(address), "named by " + address + ": " + throttled);
        } finally {
            producer.close(Duration.ZERO);
        }
    }
}
