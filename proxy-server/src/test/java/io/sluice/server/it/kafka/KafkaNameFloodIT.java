package io.sluice.server.it.kafka;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client naming 200,000 topics that do not exist, and 10,000 names no topic may have, through a
 * real {@code sluice.jar} with a 256 MiB heap: Sluice's memory for names is bounded (it lives, and its
 * resident size grows by little once its bounds are full), no invalid name is kept or listed, and a
 * producer beside the flood keeps working.
 */
class KafkaNameFloodIT {

    private static final int PER_REQUEST = 1_000;
    /** Below --max-topics-per-connection (10,000): each connection names this many, then closes. */
    private static final int PER_CONNECTION = 10_000;

    @Test
    void twoHundredThousandTopicNamesGrowSluicesMemoryByABoundedAmount() throws Exception {
        BrokersOnlySluiceReaches brokers = BrokersOnlySluiceReaches.get();
        String prefix = KafkaClientsIT.unique("flood") + "-";
        String real = KafkaClientsIT.unique("beside-flood");
        // A heap that 200,000 names' worth of state would overflow: the bounds must hold for Sluice to live.
        try (SluiceForKafka sluice = SluiceForKafka.startWithHeap("256m", brokers, brokers.plaintextBootstrap())) {
            KafkaClients clients = new KafkaClients(sluice.bootstrap());
            clients.createTopics(1, real);
            int leader = clients.describe(real).partitions().get(0).leader().id();
            int port = sluice.nodePortBase + leader;
            produceReal(clients, real);
            long before = rssKib(sluice);

            name(port, IntStream.range(0, 100_000).mapToObj(i -> prefix + i).toList());
            long first = rssKib(sluice);
            name(
                    port,
                    IntStream.range(100_000, 200_000).mapToObj(i -> prefix + i).toList());
            long second = rssKib(sluice);
            name(
                    port,
                    IntStream.range(0, 10_000)
                            .mapToObj(i -> "bad name " + i + "!")
                            .toList());
            long after = rssKib(sluice);
            System.out.printf(
                    "[kafka-names] RSS %d MiB before, +%d MiB after 100,000 names, +%d MiB after 100,000 more,"
                            + " +%d MiB after 10,000 invalid ones%n",
                    before >> 10, (first - before) >> 10, (second - first) >> 10, (after - second) >> 10);
            assertTrue(second - first < 50 << 10, "the second 100,000 names add under 50 MiB");
            assertTrue(after - before < 400 << 10, "the whole flood under 400 MiB");

            String topics = sluice.get("/api/v1/topics").body();
            assertFalse(topics.contains("bad name"), "no invalid name is kept or listed");
            long listed = topics.split("\"topic\"", -1).length - 1;
            System.out.printf("[kafka-names] /api/v1/topics lists %d topics%n", listed);
            assertTrue(listed <= 100_001, "/api/v1/topics within --max-tracked-topics: " + listed);
            produceReal(clients, real);
            assertFalse(sluice.leaked(), "Sluice's log reports a leaked buffer");
        }
    }

    /** Names every one of {@code topics} in a Produce, {@link #PER_REQUEST} a request, on connections of its own. */
    private static void name(int port, List<String> topics) throws IOException {
        for (int from = 0; from < topics.size(); from += PER_CONNECTION) {
            try (RawKafkaClient raw = new RawKafkaClient(port)) {
                int end = Math.min(topics.size(), from + PER_CONNECTION);
                for (int start = from; start < end; start += PER_REQUEST) {
                    List<String> batch = new ArrayList<>(topics.subList(start, Math.min(end, start + PER_REQUEST)));
                    assertEquals(batch.size(), raw.produceToEach(batch), "every partition answered");
                }
            }
        }
    }

    /** A stock producer's ten records to {@code topic}, acknowledged. */
    private static void produceReal(KafkaClients clients, String topic) throws Exception {
        try (KafkaProducer<String, String> producer = clients.producer()) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, Integer.toString(i))).get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** Sluice's resident set size in KiB, as its process's /proc status says. */
    private static long rssKib(SluiceForKafka sluice) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(sluice.process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS for Sluice's process");
    }
}
