package io.sluice.server.it;

import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.sluice.SluiceProcess;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Reader;
import org.apache.pulsar.client.api.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGTERM while Sluice holds a backlog: the process drains and exits 0, every message the client
 * saw acknowledged is in the topic exactly once, and the rest is resent through a new Sluice.
 */
class GracefulDrainIT {

    private static final PulsarBroker broker = PulsarBroker.shared();

    @TempDir
    Path dir;

    @Test
    void sigtermDrainsHeldSendsAndTheClientResendsTheRestThroughANewSluice() throws Exception {
        String topic = "persistent://public/default/drain-" + System.nanoTime();
        Path limits = dir.resolve("limits.json");
        Files.write(
                limits,
                LimitsJson.write(
                        LimitsDocument.empty()
                                .withLimit(
                                        new ScopeRef(PulsarScopes.TOPIC, topic),
                                        PublishQuotaIT.limit(
                                                "{\"publish\":{\"messagesPerSecond\":50,\"burstSeconds\":0.1}}")),
                        ScopeCatalogue.of(PulsarScopes.DECLARED, KafkaScopes.DECLARED)));
        int port = FreePorts.loopback();
        Set<Integer> acknowledged = new ConcurrentSkipListSet<>();
        Set<Integer> acknowledgedByOldSluice;
        int total = 400;
        try (SluiceProcess sluice = SluiceProcess.start(
                        "--upstream",
                        broker.serviceUrl(),
                        "--listen",
                        "127.0.0.1:" + port,
                        "--admin",
                        "127.0.0.1:0",
                        "--limits-file",
                        limits.toString(),
                        "--drain-timeout",
                        "3");
                PulsarClient client = PulsarClient.builder()
                        .serviceUrl("pulsar://127.0.0.1:" + port)
                        .operationTimeout(30, TimeUnit.SECONDS)
                        .build()) {
            Producer<String> producer = client.newProducer(Schema.STRING)
                    .topic(topic)
                    .enableBatching(false)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .blockIfQueueFull(true)
                    .create();
            List<CompletableFuture<?>> sends = new ArrayList<>();
            for (int i = 0; i < total; i++) {
                int seq = i;
                sends.add(producer.sendAsync("m-" + seq).thenRun(() -> acknowledged.add(seq)));
            }
            Thread.sleep(1_000);
            int beforeTerm = acknowledged.size();
            sluice.terminate();
            assertEquals(0, sluice.awaitExit(30), "SIGTERM exits 0");
            int afterDrain = acknowledged.size();
            acknowledgedByOldSluice = Set.copyOf(acknowledged);
            System.out.printf(
                    "drain: %d acknowledged before SIGTERM, %d when the old Sluice exited%n", beforeTerm, afterDrain);
            assertTrue(afterDrain > beforeTerm + 50, "held sends went on to the broker during the drain");
            assertTrue(afterDrain < total, "the backlog outlasted the drain timeout, so some sends must be resent");

            try (RunningSluice replacement = RunningSluice.frontProxy(broker, port, limits)) {
                CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
                producer.close();
            }
        }
        assertEquals(total, acknowledged.size(), "every send was acknowledged in the end");
        Map<Integer, Integer> copies = new HashMap<>();
        try (PulsarClient direct =
                        PulsarClient.builder().serviceUrl(broker.serviceUrl()).build();
                Reader<String> reader = direct.newReader(Schema.STRING)
                        .topic(topic)
                        .startMessageId(MessageId.earliest)
                        .create()) {
            while (reader.hasMessageAvailable()) {
                Message<String> message = reader.readNext(10, TimeUnit.SECONDS);
                copies.merge(Integer.parseInt(message.getValue().substring(2)), 1, Integer::sum);
            }
        }
        // What the old Sluice acknowledged is stored exactly once. A send it had forwarded when the
        // drain timeout closed the connection may be stored and then resent (Pulsar without
        // deduplication allows that), so the rest is stored at least once.
        int duplicates = 0;
        for (int seq = 0; seq < total; seq++) {
            int stored = copies.getOrDefault(seq, 0);
            if (acknowledgedByOldSluice.contains(seq)) {
                assertEquals(
                        1, stored, "message " + seq + ", acknowledged before the drain ended, stored exactly once");
            } else {
                assertTrue(stored >= 1, "message " + seq + " resent and stored");
                duplicates += stored - 1;
            }
        }
        System.out.printf(
                "drain: %d resent messages stored twice (forwarded, then cut off by the drain timeout)%n", duplicates);
    }
}
