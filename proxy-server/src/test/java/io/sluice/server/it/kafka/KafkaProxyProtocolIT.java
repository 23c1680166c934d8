package io.sluice.server.it.kafka;

import io.sluice.server.it.ProxyProtocolContract;
import io.sluice.server.it.TcpTee;
import io.sluice.testing.ProxyHeaders;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SslConfigs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stock Kafka clients speaking TLS behind a load balancer that writes the PROXY protocol header (a
 * relay in front of each of Sluice's ports, Sluice listening on 127.0.0.2 and advertising
 * 127.0.0.1), through Sluice with {@code --proxy-protocol optional --proxy-protocol-from
 * 127.0.0.1/32} to a real cluster, the TLS handshake after the header: the address a v1 or v2
 * header names is the one {@code /api/v1/throttled} shows; a client without one keeps its
 * socket's; a header from a peer outside the trusted block closes the connection and is counted.
 */
class KafkaProxyProtocolIT implements ProxyProtocolContract {

    private static final AtomicReference<Function<Socket, byte[]>> HEADER = new AtomicReference<>(client -> null);
    private static final List<TcpTee> balancers = new ArrayList<>();
    private static BrokersOnlySluiceReaches brokers;
    private static SluiceForKafka sluice;
    private static KafkaClients clients;

    @BeforeAll
    static void start() throws IOException {
        brokers = BrokersOnlySluiceReaches.get();
        IssuedCertificate certificate =
                brokers.ca.issue("sluice").hosts("127.0.0.1", "localhost").write();
        sluice = SluiceForKafka.startOn(
                "127.0.0.2",
                brokers,
                brokers.plaintextBootstrap(),
                "--proxy-protocol",
                "optional",
                "--proxy-protocol-from",
                "127.0.0.1/32",
                "--tls-cert",
                certificate.certificate().toString(),
                "--tls-key",
                certificate.key().toString());
        balancers.add(balancer(sluice.kafkaPort));
        for (int node : brokers.cluster.nodeIds()) {
            balancers.add(balancer(sluice.nodePortBase + node));
        }
        clients = new KafkaClients(
                sluice.bootstrap(),
                Map.of(
                        CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                        SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                        SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
                                brokers.ca.certificateFile().toString()));
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
    void aHeaderFromAnUntrustedPeerClosesTheConnection() throws Exception {
        assertEquals(
                -1,
                ProxyHeaders.answerToAHeaderFrom("127.0.0.3", new InetSocketAddress("127.0.0.2", sluice.kafkaPort)),
                "closed without an answer");
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
    @Override
    public void assertThrottledAs(Function<Socket, byte[]> header, String address) throws Exception {
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
