package io.sluice.server.it.kafka;

import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Collection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Passthrough mode: Sluice as a sidecar beside one broker whose client listener already
 * advertises Sluice's port; Sluice forwards to the broker's own port and rewrites no address.
 */
class KafkaSidecarIT {

    @Test
    void aSidecarPassesTheBrokersOwnAddressesThroughAndClientsWorkThroughIt() throws Exception {
        int sidecarPort = FreePorts.loopback();
        try (KafkaCluster cluster = KafkaCluster.builder()
                        .brokers(1)
                        .advertisedClientPort(1, sidecarPort)
                        .start();
                SluiceProcess sluice = SluiceProcess.start(
                        "--kafka-upstream",
                        "127.0.0.1:" + cluster.brokerPort(1),
                        "--kafka-listen",
                        "127.0.0.1:" + sidecarPort,
                        "--kafka-address-mode",
                        "passthrough",
                        "--admin",
                        "127.0.0.1:0",
                        "--limits-file",
                        Files.createTempDirectory("sluice-sidecar")
                                .resolve("limits.json")
                                .toString())) {
            KafkaClients clients = new KafkaClients("127.0.0.1:" + sidecarPort);
            try (Admin admin = clients.admin()) {
                Collection<Node> nodes = admin.describeCluster().nodes().get();
                assertEquals(
                        List.of("127.0.0.1:" + sidecarPort),
                        nodes.stream().map(n -> n.host() + ":" + n.port()).toList(),
                        "the broker's own advertised address, which names the sidecar");
            }
            String topic = KafkaClientsIT.unique("sidecar");
            clients.createTopics(2, 1, topic);
            try (KafkaProducer<String, String> producer = clients.producer()) {
                KafkaClientsIT.awaitAll(KafkaClientsIT.sendNumbered(producer, topic, 2, 0, 1_000));
            }
            KafkaClientsIT.assertNumberedInOrder(
                    KafkaClientsIT.consumeAll(clients.consumer(), List.of(topic), 1_000), 2, 1_000);
            assertTrue(sluice.readyLine().contains("address mode passthrough"), sluice.readyLine());
            assertFalse(Files.readString(sluice.logFile()).contains("LEAK:"), "Sluice's log reports a leaked buffer");
        }
    }
}
