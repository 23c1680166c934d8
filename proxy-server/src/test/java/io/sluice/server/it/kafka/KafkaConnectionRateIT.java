package io.sluice.server.it.kafka;

import io.sluice.server.it.ConnectStorm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Kafka client reconnecting in a loop to Sluice's bootstrap port, in front of a real cluster,
 * under {@code ips "*"} 10 new connections a second with a burst of 1 s, set through the REST API:
 * the broker answers its ApiVersions on rate x time + burst connections (+-10 %), the rest are
 * closed unanswered and counted as {@code connection_rate}; another address beside it is not slowed.
 * The same for one client id under {@code kafka.clients}: its connections over the rate are closed at
 * their first request, unanswered.
 */
class KafkaConnectionRateIT {

    private static final String REFUSED =
            "sluice_connections_refused_total{protocol=\"kafka\",reason=\"connection_rate\"}";

    private static SluiceForKafka sluice;

    @BeforeAll
    static void start() {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap());
    }

    @AfterEach
    void eachAddressUnlimited() {
        sluice.unlimitAddresses("*");
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    /** ApiVersions v0, and the broker's answer through Sluice. */
    static void apiVersions(Socket socket) throws IOException {
        apiVersions("storm").exchange(socket);
    }

    /** ApiVersions v0 from client id {@code clientId}, and the broker's answer through Sluice. */
    static ConnectStorm.Handshake apiVersions(String clientId) {
        byte[] id = clientId.getBytes(StandardCharsets.UTF_8);
        return socket -> {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(2 + 2 + 4 + 2 + id.length);
            out.writeShort(18);
            out.writeShort(0);
            out.writeInt(1);
            out.writeShort(id.length);
            out.write(id);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] response = new byte[in.readInt()];
            in.readFully(response);
            assertEquals(1, java.nio.ByteBuffer.wrap(response).getInt(), "the answer to our request");
        };
    }

    @Test
    void aReconnectLoopGetsTheRateAndAnotherAddressIsNotSlowed() throws Exception {
        sluice.limitAddresses("*", "{\"connections\": {\"perSecond\": 10, \"burstSeconds\": 1}}");
        double refusedBefore = sluice.metric(REFUSED);
        InetSocketAddress bootstrap = new InetSocketAddress("127.0.0.1", sluice.kafkaPort);
        CompletableFuture<ConnectStorm.Result> beside = CompletableFuture.supplyAsync(() -> {
            try {
                return ConnectStorm.run(
                        bootstrap, "127.0.0.2", null, 12, Duration.ofSeconds(3), KafkaConnectionRateIT::apiVersions);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ConnectStorm.Result loop = ConnectStorm.run(
                bootstrap, "127.0.0.1", null, 300, Duration.ofSeconds(3), KafkaConnectionRateIT::apiVersions);
        ConnectStorm.Result other = beside.get();
        System.out.println("Kafka reconnect loop: " + loop + ", beside it: " + other);

        double expected = loop.expected(10, 1);
        assertTrue(
                Math.abs(loop.admitted() - expected) <= expected * 0.1,
                "admitted " + loop.admitted() + " of " + loop.attempts() + " in " + loop.spanSeconds() + " s, expected "
                        + expected + " +-10 %");
        assertEquals(loop.closed(), sluice.metric(REFUSED) - refusedBefore, 0.0, "the rest closed as over the rate");
        assertEquals(12, other.admitted(), "the address beside it is within its own rate");
        assertTrue(other.slowestSeconds() < 0.5, "and not slowed: " + other.slowestSeconds() + " s");
    }

    @Test
    void aClientIdReconnectingInALoopGetsItsRateAndAnotherClientIdIsNotSlowed() throws Exception {
        sluice.limitClient("looping", "{\"connections\": {\"perSecond\": 10, \"burstSeconds\": 1}}");
        double refusedBefore = sluice.metric(REFUSED);
        InetSocketAddress bootstrap = new InetSocketAddress("127.0.0.1", sluice.kafkaPort);
        CompletableFuture<ConnectStorm.Result> beside = CompletableFuture.supplyAsync(() -> {
            try {
                return ConnectStorm.run(bootstrap, "127.0.0.1", null, 12, Duration.ofSeconds(3), apiVersions("steady"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ConnectStorm.Result loop =
                ConnectStorm.run(bootstrap, "127.0.0.1", null, 150, Duration.ofSeconds(3), apiVersions("looping"));
        ConnectStorm.Result other = beside.get();
        System.out.println("Kafka client id reconnecting in a loop: " + loop + ", another client id: " + other);

        // Charged at its first request, so a connection over the rate is closed at once, never waiting.
        double expected = loop.expected(10, 1);
        assertTrue(
                Math.abs(loop.admitted() - expected) <= expected * 0.1 + 1,
                "admitted " + loop.admitted() + " of " + loop.attempts() + " in " + loop.spanSeconds() + " s, expected "
                        + expected + " +-10 %");
        assertEquals(loop.closed(), sluice.metric(REFUSED) - refusedBefore, 0.0, "the rest closed as over the rate");
        assertEquals(12, other.admitted(), "the client id beside it is within its own rate");
        assertTrue(other.slowestSeconds() < 0.5, "and not slowed: " + other.slowestSeconds() + " s");
    }
}
