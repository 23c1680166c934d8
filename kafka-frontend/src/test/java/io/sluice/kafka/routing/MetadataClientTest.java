package io.sluice.kafka.routing;

import io.sluice.kafka.testing.RecordingBroker;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Sluice's own Metadata request, to a stand-in broker speaking the real protocol. */
class MetadataClientTest {

    @Test
    void listsTheBrokersOfTheCluster() throws Exception {
        try (RecordingBroker broker = new RecordingBroker()) {
            BrokerEndpoint server = BrokerEndpoint.parse(broker.bootstrap());

            List<MetadataClient.Node> nodes = MetadataClient.brokers(server, Duration.ofSeconds(10));

            assertEquals(List.of(new MetadataClient.Node(0, "127.0.0.1", server.port())), nodes);
            RecordingBroker.Connection connection = broker.connections().get(0);
            assertEquals(2, connection.requests().size(), "ApiVersions, then Metadata");
        }
    }

    @Test
    void aPeerThatClosesOrIsNotThereIsAnIOException() throws Exception {
        try (ServerSocket closing = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try (Socket ignored = closing.accept()) {
                    // Closed at once, as a broker that wants SASL first closes after the Metadata request.
                } catch (IOException closed) {
                    // The test is over.
                }
            });
            acceptor.start();
            assertThrows(
                    IOException.class,
                    () -> MetadataClient.brokers(
                            new BrokerEndpoint("127.0.0.1", closing.getLocalPort()), Duration.ofSeconds(5)));
            acceptor.join();
        }
        int unused;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            unused = probe.getLocalPort();
        }
        assertThrows(
                IOException.class,
                () -> MetadataClient.brokers(new BrokerEndpoint("127.0.0.1", unused), Duration.ofSeconds(5)));
    }
}
