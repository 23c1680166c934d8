package io.sluice.server.it.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.server.it.TcpTee;
import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.process.FreePorts;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Consumer group storms through Sluice to a real KRaft broker of the test's own, whose every
 * byte from Sluice passes a recording relay ({@link TcpTee}, which the broker advertises), so the
 * test counts the JoinGroups that reach the broker, by group:
 * <ul>
 *   <li>a group of three stock Java consumers that leave and rejoin in a loop for 20 s under
 *       {@code joinsPerMinute} 6 ({@code delay}, a glob's limit) gets 6 JoinGroups at once and one
 *       per 10 s after, however many it sends; another group beside it, unlimited, rejoins at once
 *       each time;</li>
 *   <li>under {@code reject} a Java consumer and a librdkafka one rejoining in a loop are refused
 *       past the rate (COORDINATOR_LOAD_IN_PROGRESS), retry, and every join completes.</li>
 * </ul>
 */
class KafkaGroupRateIT {

    private static final int BROKER = 1;
    private static final double JOINS_PER_MINUTE = 6;
    private static final Duration STORM = Duration.ofSeconds(20);
    private static final String REFUSED = "action=\"reject\"";

    private static KafkaCluster cluster;
    private static TcpTee relay;
    private static SluiceForKafka sluice;
    private static KafkaClients clients;
    private static String topic;

    @BeforeAll
    static void start() throws Exception {
        int relayPort = FreePorts.loopback();
        cluster = KafkaCluster.builder()
                .brokers(1)
                .advertisedClientPort(BROKER, relayPort)
                .brokerConfig("group.initial.rebalance.delay.ms", "0")
                .start();
        relay = new TcpTee(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), relayPort),
                "127.0.0.1",
                cluster.brokerPort(BROKER));
        sluice = SluiceForKafka.start(cluster, "127.0.0.1:" + relayPort);
        clients = new KafkaClients(sluice.bootstrap());
        topic = KafkaClientsIT.unique("group-storm");
        clients.createTopics(3, 1, topic);
    }

    @AfterAll
    static void stop() throws Exception {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
        if (relay != null) {
            relay.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aGroupRejoiningInALoopReachesTheBrokerAtItsJoinRateAndAnotherGroupIsNotSlowed() throws Exception {
        sluice.limitGroup("storm-*", "{\"joinsPerMinute\": " + JOINS_PER_MINUTE + "}");
        String storm = KafkaClientsIT.unique("storm-");
        String calm = KafkaClientsIT.unique("calm-");
        Map<String, Integer> before = joinGroupsAtBroker();
        ExecutorService members = Executors.newFixedThreadPool(4);
        long start = System.nanoTime();
        long deadline = start + STORM.toNanos();
        List<Future<List<Long>>> stormMembers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            stormMembers.add(members.submit(() -> rejoinUntil(storm, deadline)));
        }
        Future<List<Long>> calmMember = members.submit(() -> rejoinUntil(calm, deadline));
        int stormJoinsDone = 0;
        for (Future<List<Long>> member : stormMembers) {
            stormJoinsDone += member.get().size();
        }
        List<Long> calmJoins = calmMember.get();
        double seconds = (System.nanoTime() - start) / 1e9;
        members.shutdown();
        Map<String, Integer> after = joinGroupsAtBroker();
        int stormAtBroker = after.getOrDefault(storm, 0) - before.getOrDefault(storm, 0);
        int calmAtBroker = after.getOrDefault(calm, 0) - before.getOrDefault(calm, 0);
        double bound = JOINS_PER_MINUTE + JOINS_PER_MINUTE * seconds / 60 + 1;
        long calmSlowest = calmJoins.stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
        System.out.printf(
                "Join storm over %.1f s at %s joins/min: %d JoinGroups of the storm reached the broker (bound %.1f),"
                        + " %d of its members' joins completed; the group beside it: %d JoinGroups, %d joins, slowest"
                        + " %d ms%n",
                seconds,
                JOINS_PER_MINUTE,
                stormAtBroker,
                bound,
                stormJoinsDone,
                calmAtBroker,
                calmJoins.size(),
                calmSlowest);

        assertTrue(stormAtBroker <= bound, stormAtBroker + " JoinGroups reached the broker, at most " + bound);
        assertTrue(stormAtBroker >= JOINS_PER_MINUTE, "the burst at least: " + stormAtBroker);
        assertTrue(calmJoins.size() >= 10, "the group beside it rejoined " + calmJoins.size() + " times");
        assertTrue(calmSlowest < 3_000, "and was not slowed: its slowest join took " + calmSlowest + " ms");
        assertTrue(calmAtBroker > 2 * bound, calmAtBroker + " JoinGroups of the unlimited group reached the broker");
        assertTrue(throttleEvents("action=\"delay\"") > 0, "the held joins are throttle events");
    }

    @Test
    void aJavaConsumerRefusedPastTheRateRetriesAndEveryJoinCompletes() throws Exception {
        sluice.limitGroup("strict-java-*", "{\"joinsPerMinute\": 12, \"onExceed\": \"reject\"}");
        String group = KafkaClientsIT.unique("strict-java-");
        double refusedBefore = throttleEvents(REFUSED);
        List<Long> joins = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            joins.add(join(group, System.nanoTime() + Duration.ofSeconds(30).toNanos()));
        }
        System.out.println("Java consumer rejoining under reject, each join in ms: " + joins);
        assertEquals(8, joins.stream().filter(ms -> ms >= 0).count(), "every join completed: " + joins);
        assertTrue(throttleEvents(REFUSED) > refusedBefore, "some joins were refused first");
    }

    @Test
    void aLibrdkafkaConsumerRefusedPastTheRateRetriesAndEveryJoinCompletes() throws Exception {
        LibrdkafkaScript librdkafka = LibrdkafkaScript.forClientsOf(sluice.bootstrap(), List.of());
        sluice.limitGroup("strict-rdkafka-*", "{\"joinsPerMinute\": 12, \"onExceed\": \"reject\"}");
        String group = KafkaClientsIT.unique("strict-rdkafka-");
        double refusedBefore = throttleEvents(REFUSED);

        JsonNode rejoined = librdkafka.run("rejoin", topic, 8, "--group", group, "--timeout", "30");

        System.out.println("librdkafka consumer rejoining under reject: " + rejoined);
        List<Integer> joins = new ArrayList<>();
        rejoined.get("joinsMs").forEach(ms -> joins.add(ms.isNull() ? null : ms.asInt()));
        assertEquals(8, joins.stream().filter(ms -> ms != null).count(), "every join completed: " + rejoined);
        assertTrue(throttleEvents(REFUSED) > refusedBefore, "some joins were refused first");
    }

    /** Joins {@code group} and leaves again, over and over until {@code deadlineNanos}; how long each join took, in ms. */
    private static List<Long> rejoinUntil(String group, long deadlineNanos) {
        List<Long> joins = new ArrayList<>();
        while (System.nanoTime() < deadlineNanos) {
            long took = join(group, deadlineNanos);
            if (took >= 0) {
                joins.add(took);
            }
        }
        return joins;
    }

    /**
     * A new consumer joins {@code group}, subscribed to the topic, and leaves once it has its
     * partitions or at {@code deadlineNanos}; how long the join took in ms, or -1 when it did not end.
     */
    private static long join(String group, long deadlineNanos) {
        long start = System.nanoTime();
        try (KafkaConsumer<String, String> consumer = clients.consumer(
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic")) {
            consumer.subscribe(List.of(topic));
            while (consumer.assignment().isEmpty() && System.nanoTime() < deadlineNanos) {
                consumer.poll(Duration.ofMillis(100));
            }
            long took = consumer.assignment().isEmpty() ? -1 : (System.nanoTime() - start) / 1_000_000;
            consumer.close(Duration.ofSeconds(1));
            return took;
        }
    }

    /** The JoinGroup requests Sluice sent the broker, by group, read from what the relay recorded. */
    private static Map<String, Integer> joinGroupsAtBroker() {
        Map<String, Integer> joins = new HashMap<>();
        for (TcpTee.Recording recording : relay.recordings) {
            ByteBuffer bytes = ByteBuffer.wrap(recording.clientBytes());
            while (bytes.remaining() >= 4 && bytes.getInt(bytes.position()) <= bytes.remaining() - 4) {
                int size = bytes.getInt();
                ByteBuffer frame = bytes.slice(bytes.position(), size);
                bytes.position(bytes.position() + size);
                if (frame.getShort(0) == ApiKeys.JOIN_GROUP.id) {
                    RequestHeader header = RequestHeader.parse(frame);
                    JoinGroupRequest request = (JoinGroupRequest) AbstractRequest.parseRequest(
                                    ApiKeys.JOIN_GROUP, header.apiVersion(), new ByteBufferAccessor(frame))
                            .request;
                    joins.merge(request.data().groupId(), 1, Integer::sum);
                }
            }
        }
        return joins;
    }

    /** The throttle events of groups' joins with the label {@code action}, summed over their series. */
    private static double throttleEvents(String action) {
        double total = 0;
        for (String line : sluice.metrics().split("\n")) {
            if (line.startsWith("sluice_throttle_events_total{")
                    && line.contains("reason=\"group_joins\"")
                    && line.contains(action)) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }
}
