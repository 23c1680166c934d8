package io.sluice.server.it.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Topic-creation storms through Sluice to the real cluster, stock Java AdminClients, each client id
 * under {@code mutations} 5 partitions a second with a burst of 1 s (docs/KAFKA.md, "Topic
 * mutations"):
 * <ul>
 *   <li>500 CreateTopics of one partition sent over 10 s by ten AdminClients of one client id (one
 *       alone would be slowed by the throttle times it waits out), retries on quota violations off: the
 *       client gets THROTTLING_QUOTA_EXCEEDED past the rate, and the cluster (asked directly, over
 *       its internal listener) has no more topics than the rate and burst allow, exactly those the
 *       client was told were created; another client id beside it creates its topics unslowed;</li>
 *   <li>one CreateTopics of 20 topics is split as Kafka splits it, 5 created and 15 refused with
 *       Sluice's message; with the AdminClient's default retries, a second one creates all 20,
 *       the client retrying through the refusals at the rate.</li>
 * </ul>
 */
class KafkaTopicMutationIT {

    private static final double RATE = 5;
    /** The storm's admin clients, one client id: each connection waits out its own throttle times. */
    private static final int ADMINS = 10;

    private static final String LIMIT = "{\"mutations\": {\"partitionsPerSecond\": " + RATE + ", \"burstSeconds\": 1}}";

    private static BrokersOnlySluiceReaches brokers;
    private static SluiceForKafka sluice;
    private static KafkaClients clients;

    @BeforeAll
    static void start() {
        brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.start(brokers, brokers.plaintextBootstrap());
        clients = new KafkaClients(sluice.bootstrap());
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    /** An admin client straight to the cluster, over the brokers' internal listener, which advertises addresses the test reaches. */
    private static Admin direct() {
        int broker = brokers.cluster.nodeIds().get(0);
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + brokers.cluster.internalPort(broker)));
    }

    /** The cluster's topics whose names start with {@code prefix}, asked directly. */
    private static Set<String> atCluster(String prefix) throws Exception {
        try (Admin admin = direct()) {
            Set<String> names =
                    new java.util.TreeSet<>(admin.listTopics().names().get(60, TimeUnit.SECONDS));
            names.removeIf(name -> !name.startsWith(prefix));
            return names;
        }
    }

    private static void deleteAt(Set<String> topics) throws Exception {
        if (topics.isEmpty()) {
            return;
        }
        try (Admin admin = direct()) {
            admin.deleteTopics(topics).all().get(60, TimeUnit.SECONDS);
        }
    }

    /** Whether {@code future} failed with THROTTLING_QUOTA_EXCEEDED; false when it succeeded. Other failures fail the test. */
    private static boolean refused(KafkaFuture<Void> future) throws Exception {
        try {
            future.get(60, TimeUnit.SECONDS);
            return false;
        } catch (ExecutionException e) {
            assertInstanceOf(ThrottlingQuotaExceededException.class, e.getCause(), e.toString());
            assertTrue(
                    e.getCause().getMessage().startsWith("Sluice refused the topic mutation"),
                    e.getCause().getMessage());
            return true;
        }
    }

    @Test
    void aTopicCreationStormGetsTheRateAndAnotherClientIdIsNotSlowed() throws Exception {
        String storm = KafkaClientsIT.unique("storm");
        sluice.limitClient(storm, LIMIT);
        String calm = KafkaClientsIT.unique("calm");
        sluice.limitClient(calm, LIMIT);
        CompletableFuture<List<Long>> beside = CompletableFuture.supplyAsync(() -> createOneByOne(calm, 5));
        List<KafkaFuture<Void>> sent = new ArrayList<>();
        long start;
        long end;
        List<Admin> fleet = new ArrayList<>();
        try {
            for (int i = 0; i < ADMINS; i++) {
                fleet.add(clients.admin(AdminClientConfig.CLIENT_ID_CONFIG, storm));
            }
            CreateTopicsOptions noRetries = new CreateTopicsOptions().retryOnQuotaViolation(false);
            start = System.nanoTime();
            for (int i = 0; i < 500; i++) {
                long due = start + i * 20_000_000L;
                long now = System.nanoTime();
                if (due > now) {
                    TimeUnit.NANOSECONDS.sleep(due - now);
                }
                sent.add(fleet.get(i % ADMINS)
                        .createTopics(List.of(new NewTopic(storm + "-" + i, 1, (short) 1)), noRetries)
                        .all());
            }
            int refused = 0;
            Set<String> created = new java.util.TreeSet<>();
            for (int i = 0; i < sent.size(); i++) {
                if (refused(sent.get(i))) {
                    refused++;
                } else {
                    created.add(storm + "-" + i);
                }
            }
            end = System.nanoTime();
            double seconds = (end - start) / 1e9;
            Set<String> atCluster = atCluster(storm + "-");
            List<Long> calmMillis = beside.get(120, TimeUnit.SECONDS);
            long calmSlowest =
                    calmMillis.stream().mapToLong(Long::longValue).max().orElseThrow();
            System.out.printf(
                    "Kafka topic-creation storm over %.2f s at %.0f partitions/s: %d of 500 created (bound %.1f),"
                            + " %d refused, %d at the cluster; the client id beside it: %d topics, slowest %d ms%n",
                    seconds,
                    RATE,
                    created.size(),
                    RATE * seconds + RATE,
                    refused,
                    atCluster.size(),
                    calmMillis.size(),
                    calmSlowest);
            assertEquals(created, atCluster, "the cluster has exactly the topics the client was told it has");
            assertTrue(created.size() <= RATE * seconds + RATE + 1, created.size() + " created in " + seconds + " s");
            assertTrue(created.size() >= RATE * 10 * 0.8, "but the rate: " + created.size());
            assertEquals(500, created.size() + refused);
            assertTrue(calmSlowest < 2_000, "the client id beside it is not slowed: " + calmSlowest + " ms");
            deleteAt(atCluster);
            deleteAt(atCluster(calm + "-"));
        } finally {
            fleet.forEach(Admin::close);
        }
        double events = 0;
        for (String line : sluice.metrics().split("\n")) {
            if (line.startsWith("sluice_throttle_events_total{") && line.contains("reason=\"topic_mutations\"")) {
                events += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        assertTrue(events >= 1, "the throttle counted");
    }

    /** {@code count} topics created one at a time by client id {@code clientId}, one a second: how long each took. */
    private static List<Long> createOneByOne(String clientId, int count) {
        List<Long> millis = new ArrayList<>();
        try (Admin admin = clients.admin(AdminClientConfig.CLIENT_ID_CONFIG, clientId)) {
            for (int i = 0; i < count; i++) {
                long sent = System.nanoTime();
                admin.createTopics(List.of(new NewTopic(clientId + "-" + i, 1, (short) 1)))
                        .all()
                        .get(60, TimeUnit.SECONDS);
                millis.add((System.nanoTime() - sent) / 1_000_000);
                Thread.sleep(1_000);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return millis;
    }

    @Test
    void aRequestOfManyTopicsIsSplitAsKafkaSplitsItAndTheClientRetriesThroughTheRefusals() throws Exception {
        String batch = KafkaClientsIT.unique("batch");
        sluice.limitClient(batch, LIMIT);
        List<NewTopic> twenty = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            twenty.add(new NewTopic(batch + "-" + i, 1, (short) 1));
        }
        int refused = 0;
        try (Admin admin = clients.admin(AdminClientConfig.CLIENT_ID_CONFIG, batch)) {
            Map<String, KafkaFuture<Void>> results = admin.createTopics(
                            twenty, new CreateTopicsOptions().retryOnQuotaViolation(false))
                    .values();
            for (KafkaFuture<Void> result : results.values()) {
                refused += refused(result) ? 1 : 0;
            }
        }
        Set<String> created = atCluster(batch + "-");
        assertEquals(15, refused, "a bucket of 5: 5 topics created, the rest refused");
        assertEquals(5, created.size());
        deleteAt(created);

        String patient = KafkaClientsIT.unique("patient");
        sluice.limitClient(patient, LIMIT);
        List<NewTopic> retried = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            retried.add(new NewTopic(patient + "-" + i, 1, (short) 1));
        }
        long start = System.nanoTime();
        try (Admin admin = clients.admin(AdminClientConfig.CLIENT_ID_CONFIG, patient)) {
            admin.createTopics(retried).all().get(60, TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Set<String> all = atCluster(patient + "-");
        System.out.printf("20 topics in one request at %.0f partitions/s, retried through: %.2f s%n", RATE, seconds);
        assertEquals(20, all.size(), "the AdminClient retried every refused topic until it was created");
        assertTrue(seconds >= (20 - RATE) / RATE * 0.8, "at the rate: " + seconds + " s");
        deleteAt(all);
    }
}
