package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.MessageFrames;
import io.sluice.kafka.codec.MutationRequest;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.MutationRate;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.status.ThrottledClient;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mutation gate against a fake clock, as Kafka's controller mutation quota (KIP-599) behaves: a
 * storm of one-topic CreateTopics gets the rate, the rest refused with THROTTLING_QUOTA_EXCEEDED and
 * a throttle time; a request of many topics split, the admitted ones forwarded in a cut request and
 * Sluice's refusals merged into the broker's response; a topic admitted whole while the bucket is
 * not in debt; hostile counts, names and repeats bounded before anything is charged; a topic the
 * broker refuses given its charge back; older versions charged, forwarded and throttled, never
 * refused; DeleteTopics by id and CreatePartitions answered in their own form.
 */
@ExtendWith(LeakCheck.class)
class MutationGateTest {

    private static final short CREATE_V = 7;
    private static final short PERMISSIVE_CREATE_V = 5;

    private final GateHarness harness = new GateHarness();
    private int correlationId;

    @AfterEach
    void closeAll() {
        harness.forwarded.removeIf(forwarded -> {
            if (forwarded.exchange() == null) {
                forwarded.frame().release();
                return true;
            }
            return false;
        });
        harness.close();
    }

    private void limitClient(double partitionsPerSecond) {
        harness.limit(
                new ScopeRef(KafkaScopes.CLIENT, GateHarness.CLIENT_ID),
                Limit.mutations(new MutationRate(partitionsPerSecond, 1.0)));
    }

    private static CreateTopicsRequestData.CreatableTopic topic(String name, int partitions) {
        return new CreateTopicsRequestData.CreatableTopic()
                .setName(name)
                .setNumPartitions(partitions)
                .setReplicationFactor((short) 1);
    }

    private void create(short version, CreateTopicsRequestData.CreatableTopic... topics) {
        CreateTopicsRequestData request = new CreateTopicsRequestData().setTimeoutMs(30_000);
        for (CreateTopicsRequestData.CreatableTopic topic : topics) {
            request.topics().add(topic);
        }
        harness.request(KafkaFrames.request(request, version, ++correlationId, GateHarness.CLIENT_ID));
    }

    /** The topic names of the forwarded CreateTopics {@code forwarded}, as the broker reads them. */
    private static List<String> createdNames(GateHarness.Forwarded forwarded) {
        CreateTopicsRequestData request = read(forwarded, new CreateTopicsRequestData());
        List<String> names = new ArrayList<>();
        request.topics().forEach(topic -> names.add(topic.name()));
        return names;
    }

    private static <M extends ApiMessage> M read(GateHarness.Forwarded forwarded, M message) {
        FrameView view = KafkaFrames.view(forwarded.frame());
        RequestHeader header = new RequestHeader().read(view);
        return MessageFrames.read(message, view, header.bodyIndex(), header.apiVersion(), "test");
    }

    /** The broker creates every topic of {@code forwarded}, or answers those {@code errors} names with their error. */
    private CreateTopicsResponseData brokerCreates(GateHarness.Forwarded forwarded, Map<String, Errors> errors) {
        CreateTopicsResponseData response = new CreateTopicsResponseData();
        for (String name : createdNames(forwarded)) {
            Errors error = errors.getOrDefault(name, Errors.NONE);
            response.topics()
                    .add(new CreateTopicsResponseData.CreatableTopicResult()
                            .setName(name)
                            .setErrorCode(error.code())
                            .setNumPartitions(error == Errors.NONE ? 1 : -1));
        }
        ByteBuf out = harness.respond(forwarded, response);
        return KafkaFrames.body(out, ApiKeys.CREATE_TOPICS, forwarded.version(), new CreateTopicsResponseData());
    }

    private static Map<String, Short> errorsByName(CreateTopicsResponseData response) {
        return response.topics().stream()
                .collect(Collectors.toMap(
                        CreateTopicsResponseData.CreatableTopicResult::name,
                        CreateTopicsResponseData.CreatableTopicResult::errorCode));
    }

    @Test
    void aStormOfOneTopicRequestsGetsTheRateTheRestRefusedWithAThrottleTime() {
        limitClient(5.0);
        for (int i = 0; i < 5; i++) {
            create(CREATE_V, topic("t" + i, 1));
        }
        assertEquals(5, harness.forwarded.size(), "a second of burst");
        assertEquals(
                List.of("FORWARD whole"), harness.verdicts.stream().distinct().toList());
        create(CREATE_V, topic("t5", 1));
        assertEquals(5, harness.forwarded.size());
        assertEquals("ANSWER", harness.verdicts.get(5));
        CreateTopicsResponseData refused = KafkaFrames.body(
                harness.answers.get(0).frame(), ApiKeys.CREATE_TOPICS, CREATE_V, new CreateTopicsResponseData());
        CreateTopicsResponseData.CreatableTopicResult result = refused.topics().find("t5");
        assertEquals(Errors.THROTTLING_QUOTA_EXCEEDED.code(), result.errorCode());
        assertTrue(
                result.errorMessage()
                        .startsWith("Sluice refused the topic mutation, throttled: client app exceeds 5.0"
                                + " partitions/s; retry after "),
                result.errorMessage());
        assertTrue(refused.throttleTimeMs() > 0, "the client waits before it retries");
        assertTrue(harness.paused, "and the connection takes nothing meanwhile (KIP-219)");
        ThrottledClient throttled = harness.throttled().get(0);
        assertNull(throttled.topic());
        assertEquals("client", throttled.scope());
        assertEquals("topic_mutations", throttled.reason());
        assertEquals("reject", throttled.action());
        harness.advance(200);
        assertFalse(harness.paused);
        create(CREATE_V, topic("t6", 1));
        assertEquals(6, harness.forwarded.size(), "a partition's worth back after 200 ms at 5/s");
        create(CREATE_V, topic("t7", 1));
        assertEquals(6, harness.forwarded.size());
        for (GateHarness.Forwarded forwarded : List.copyOf(harness.forwarded)) {
            harness.forwarded.remove(forwarded);
            assertEquals(
                    Errors.NONE.code(),
                    errorsByName(brokerCreates(forwarded, Map.of()))
                            .values()
                            .iterator()
                            .next());
        }
    }

    @Test
    void aRequestOfManyTopicsIsSplitAsKafkaSplitsIt() {
        limitClient(5.0);
        CreateTopicsRequestData.CreatableTopic[] topics = new CreateTopicsRequestData.CreatableTopic[20];
        for (int i = 0; i < topics.length; i++) {
            topics[i] = topic("many-" + i, 1);
        }
        create(CREATE_V, topics);
        assertEquals(List.of("FORWARD cut"), harness.verdicts);
        GateHarness.Forwarded forwarded = harness.takeForwarded();
        assertEquals(List.of("many-0", "many-1", "many-2", "many-3", "many-4"), createdNames(forwarded));
        CreateTopicsResponseData response = brokerCreates(forwarded, Map.of());
        Map<String, Short> errors = errorsByName(response);
        assertEquals(20, errors.size(), "every topic the client asked for is answered");
        for (int i = 0; i < 20; i++) {
            short expected = i < 5 ? Errors.NONE.code() : Errors.THROTTLING_QUOTA_EXCEEDED.code();
            assertEquals(expected, errors.get("many-" + i), "many-" + i);
        }
        assertTrue(response.throttleTimeMs() > 0, "the merged response carries Sluice's throttle time");
    }

    @Test
    void aTopicIsAdmittedWholeWhileTheBucketIsNotInDebt() {
        limitClient(5.0);
        create(CREATE_V, topic("wide", 10), topic("next", 1));
        GateHarness.Forwarded forwarded = harness.takeForwarded();
        assertEquals(List.of("wide"), createdNames(forwarded), "10 partitions on a bucket of 5: admitted whole");
        CreateTopicsResponseData response = brokerCreates(forwarded, Map.of());
        assertEquals(
                Errors.THROTTLING_QUOTA_EXCEEDED.code(), errorsByName(response).get("next"));
        assertTrue(
                response.throttleTimeMs() > 900 && response.throttleTimeMs() <= 1_001,
                "5 partitions of debt at 5/s: " + response.throttleTimeMs() + " ms");
    }

    @Test
    void hostileCountsNamesAndRepeatsAreBoundedBeforeAnythingIsCharged() {
        limitClient(5.0);
        List<CreateTopicsRequestData.CreatableTopic> hostile = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            hostile.add(topic("bad name " + i, 1));
        }
        hostile.add(topic("twice", 1));
        hostile.add(topic("twice", 1));
        hostile.add(topic("zero", 0));
        hostile.add(topic("negative", -7));
        hostile.add(topic("x".repeat(250), 1));
        create(CREATE_V, hostile.toArray(CreateTopicsRequestData.CreatableTopic[]::new));
        assertEquals(List.of("FORWARD whole"), harness.verdicts, "nothing the broker refuses anyway is charged");
        for (int i = 0; i < 5; i++) {
            create(CREATE_V, topic("fine-" + i, 1));
        }
        assertEquals(6, harness.forwarded.size(), "the whole burst left for real topics");
        create(CREATE_V, topic("absurd", Integer.MAX_VALUE));
        assertEquals(6, harness.forwarded.size(), "no more room");
        harness.advance(1_000);
        create(CREATE_V, topic("absurd", Integer.MAX_VALUE));
        assertEquals(7, harness.forwarded.size(), "admitted whole, charged at most " + MutationRequest.MAX_PARTITIONS);
        GateHarness.Forwarded absurd = harness.forwarded.remove(6);
        brokerCreates(absurd, Map.of("absurd", Errors.INVALID_PARTITIONS));
        create(CREATE_V, topic("after", 1));
        assertEquals(7, harness.forwarded.size(), "the refused topic's charge given back");
        CreateTopicsRequestData oneTopic = new CreateTopicsRequestData();
        oneTopic.topics().add(topic("cut", 1));
        ByteBuf whole = KafkaFrames.request(oneTopic, CREATE_V, ++correlationId, GateHarness.CLIENT_ID);
        ByteBuf bad = whole.copy(0, whole.readableBytes() - 6).setInt(0, whole.readableBytes() - 10);
        whole.release();
        assertThrows(MalformedFrameException.class, () -> harness.request(bad));
        releaseAnswered();
    }

    @Test
    void aTopicTheBrokerRefusesIsGivenItsChargeBack() {
        limitClient(5.0);
        CreateTopicsRequestData.CreatableTopic[] existing = new CreateTopicsRequestData.CreatableTopic[5];
        for (int i = 0; i < existing.length; i++) {
            existing[i] = topic("exists-" + i, 1);
        }
        create(CREATE_V, existing);
        GateHarness.Forwarded forwarded = harness.takeForwarded();
        Map<String, Errors> errors = new HashMap<>();
        for (int i = 0; i < existing.length; i++) {
            errors.put("exists-" + i, Errors.TOPIC_ALREADY_EXISTS);
        }
        brokerCreates(forwarded, errors);
        for (int i = 0; i < 5; i++) {
            create(CREATE_V, topic("new-" + i, 1));
        }
        assertEquals(5, harness.forwarded.size(), "topics that already existed cost nothing, as at Kafka");
        releaseAnswered();
    }

    @Test
    void olderVersionsAreChargedForwardedAndThrottledNeverRefused() {
        limitClient(5.0);
        for (int i = 0; i < 6; i++) {
            create(PERMISSIVE_CREATE_V, topic("old-" + i, 1));
        }
        assertEquals(6, harness.forwarded.size(), "v5 knows no THROTTLING_QUOTA_EXCEEDED: forwarded");
        assertTrue(harness.answers.isEmpty());
        assertTrue(harness.paused, "the request over the rate mutes the connection");
        assertEquals("notify", harness.throttled().get(0).action());
        GateHarness.Forwarded over = harness.forwarded.remove(5);
        CreateTopicsResponseData response = brokerCreates(over, Map.of());
        assertTrue(response.throttleTimeMs() > 0, "its response tells the client to wait");
        assertEquals(Errors.NONE.code(), errorsByName(response).get("old-5"));
        harness.advance(1_000);
        assertFalse(harness.paused);
        releaseAnswered();
    }

    @Test
    void deleteTopicsByIdAndCreatePartitionsAreAnsweredInTheirOwnForm() {
        harness.gates.authenticated("User:alice");
        harness.limit(new ScopeRef(KafkaScopes.PRINCIPAL, "User:alice"), Limit.mutations(new MutationRate(2.0, 1.0)));
        Uuid first = Uuid.randomUuid();
        Uuid second = Uuid.randomUuid();
        Uuid third = Uuid.randomUuid();
        DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTimeoutMs(30_000);
        for (Uuid id : List.of(first, second, third)) {
            delete.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setTopicId(id));
        }
        harness.request(KafkaFrames.request(delete, (short) 6, ++correlationId, GateHarness.CLIENT_ID));
        GateHarness.Forwarded forwarded = harness.takeForwarded();
        DeleteTopicsRequestData cut = read(forwarded, new DeleteTopicsRequestData());
        assertEquals(
                List.of(first, second),
                cut.topics().stream()
                        .map(DeleteTopicsRequestData.DeleteTopicState::topicId)
                        .toList());
        DeleteTopicsResponseData deleted = new DeleteTopicsResponseData();
        for (Uuid id : List.of(first, second)) {
            deleted.responses()
                    .add(new DeleteTopicsResponseData.DeletableTopicResult()
                            .setName("n-" + id)
                            .setTopicId(id));
        }
        DeleteTopicsResponseData answered = KafkaFrames.body(
                harness.respond(forwarded, deleted), ApiKeys.DELETE_TOPICS, (short) 6, new DeleteTopicsResponseData());
        Map<Uuid, Short> byId = answered.responses().stream()
                .collect(Collectors.toMap(
                        DeleteTopicsResponseData.DeletableTopicResult::topicId,
                        DeleteTopicsResponseData.DeletableTopicResult::errorCode));
        assertEquals(
                Map.of(
                        first,
                        Errors.NONE.code(),
                        second,
                        Errors.NONE.code(),
                        third,
                        Errors.THROTTLING_QUOTA_EXCEEDED.code()),
                byId);
        assertEquals("principal", harness.throttled().get(0).scope());

        harness.advance(10_000);
        CreatePartitionsRequestData add = new CreatePartitionsRequestData().setTimeoutMs(30_000);
        List<CreatePartitionsRequestData.CreatePartitionsAssignment> three = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            three.add(new CreatePartitionsRequestData.CreatePartitionsAssignment().setBrokerIds(List.of(1)));
        }
        add.topics()
                .add(new CreatePartitionsRequestData.CreatePartitionsTopic()
                        .setName("grow")
                        .setCount(6)
                        .setAssignments(three));
        add.topics()
                .add(new CreatePartitionsRequestData.CreatePartitionsTopic()
                        .setName("more")
                        .setCount(9));
        harness.request(KafkaFrames.request(add, (short) 3, ++correlationId, GateHarness.CLIENT_ID));
        GateHarness.Forwarded grow = harness.takeForwarded();
        Function<CreatePartitionsRequestData.CreatePartitionsTopic, String> asked =
                CreatePartitionsRequestData.CreatePartitionsTopic::name;
        assertEquals(
                List.of("grow"),
                read(grow, new CreatePartitionsRequestData()).topics().stream()
                        .map(asked)
                        .toList());
        CreatePartitionsResponseData grown = new CreatePartitionsResponseData();
        grown.results().add(new CreatePartitionsResponseData.CreatePartitionsTopicResult().setName("grow"));
        CreatePartitionsResponseData answeredAdd = KafkaFrames.body(
                harness.respond(grow, grown), ApiKeys.CREATE_PARTITIONS, (short) 3, new CreatePartitionsResponseData());
        Function<CreatePartitionsResponseData.CreatePartitionsTopicResult, String> name =
                CreatePartitionsResponseData.CreatePartitionsTopicResult::name;
        assertEquals(
                List.of("grow", "more"),
                answeredAdd.results().stream().map(name).toList());
        assertEquals(
                Errors.THROTTLING_QUOTA_EXCEEDED.code(),
                answeredAdd.results().get(1).errorCode());
        assertTrue(
                answeredAdd.throttleTimeMs() > 450 && answeredAdd.throttleTimeMs() <= 501,
                "its three assignments charged 3 on a bucket of 2: " + answeredAdd.throttleTimeMs() + " ms");
        releaseAnswered();
    }

    @Test
    void withoutARateOfMutationsNothingIsRead() {
        harness.limit(new ScopeRef(KafkaScopes.CLIENT, GateHarness.CLIENT_ID), Limit.requests(new EventRate(1.0, 1.0)));
        for (int i = 0; i < 100; i++) {
            create(CREATE_V, topic("free-" + i, 100));
        }
        assertEquals(100, harness.forwarded.size());
        assertTrue(harness.forwarded.stream().allMatch(forwarded -> forwarded.exchange() == null));
    }

    /** Forwarded requests that await an exchange's response get one: every topic created. */
    private void releaseAnswered() {
        for (GateHarness.Forwarded forwarded : List.copyOf(harness.forwarded)) {
            harness.forwarded.remove(forwarded);
            if (forwarded.exchange() == null) {
                forwarded.frame().release();
            } else if (forwarded.apiKey() == ApiKeys.CREATE_TOPICS.id) {
                brokerCreates(forwarded, Map.of());
            } else {
                forwarded.frame().release();
                forwarded.exchange().abandon();
            }
        }
    }
}
