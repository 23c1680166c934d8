package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandGetSchema;
import io.sluice.pulsar.codec.proto.CommandGetTopicsOfNamespace;
import io.sluice.pulsar.codec.proto.CommandLookupTopic;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse;
import io.sluice.pulsar.codec.proto.CommandPartitionedTopicMetadata;
import io.sluice.pulsar.codec.proto.CommandPartitionedTopicMetadataResponse;
import io.sluice.pulsar.codec.proto.CommandProducer;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.FrameView;
import io.sluice.status.ThrottledClient;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The request gate's rates of LOOKUP, PRODUCER and the other commands that create work, on a fake clock. */
@ExtendWith(LeakCheck.class)
class RequestGateTest {

    private static final String TOPIC = "persistent://public/default/orders";

    private final GateHarness harness = new GateHarness();
    /** Held requests passed on, in order; owned here until released. */
    private final List<ByteBuf> passedOn = new ArrayList<>();

    private final RequestGate gate = harness.requestGate(passedOn::add);

    @AfterEach
    void closeAll() {
        gate.close();
        passedOn.forEach(ByteBuf::release);
        harness.close();
    }

    private static Limit requests(double perSecond, double burstSeconds, OnExceed onExceed) {
        return Limit.requests(new EventRate(perSecond, burstSeconds)).withOnExceed(onExceed);
    }

    private static ByteBuf frame(BaseCommand.Builder command) {
        return FrameWriter.encode(Unpooled.buffer().alloc(), command.build());
    }

    private static ByteBuf lookup(long requestId, String topic) {
        return frame(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.LOOKUP)
                .setLookupTopic(
                        CommandLookupTopic.newBuilder().setRequestId(requestId).setTopic(topic)));
    }

    private boolean admit(ByteBuf frame) {
        try {
            FrameView view = FrameView.of(frame);
            return gate.admit(view, FrameReader.type(view));
        } finally {
            frame.release();
        }
    }

    /** The request ids of the LOOKUPs passed on so far, released. */
    private List<Long> passedOnLookups() {
        List<Long> ids = new ArrayList<>();
        for (ByteBuf frame : passedOn) {
            ids.add(FrameReader.parse(FrameView.of(frame)).getLookupTopic().getRequestId());
            frame.release();
        }
        passedOn.clear();
        return ids;
    }

    @Test
    void withoutARateOfRequestsEveryRequestGoesOnUnread() {
        harness.limit(new ScopeRef(PulsarScopes.TOPIC, TOPIC), Limit.NONE);
        for (int i = 0; i < 1_000; i++) {
            assertTrue(admit(lookup(i, TOPIC)));
        }
        assertTrue(harness.client.isEmpty());
        assertTrue(gate.isIdle());
    }

    @Test
    void rejectAnswersEachCommandWithItsOwnErrorResponseSayingItIsSluices() {
        harness.limit(new ScopeRef(PulsarScopes.ROLE, ScopeKind.DEFAULT_NAME), requests(2, 1, OnExceed.REJECT));
        gate.authenticated("alice");
        assertTrue(admit(lookup(1, TOPIC)));
        assertTrue(admit(lookup(2, "orders")));
        assertFalse(admit(lookup(3, TOPIC)));
        assertFalse(admit(frame(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.PARTITIONED_METADATA)
                .setPartitionMetadata(CommandPartitionedTopicMetadata.newBuilder()
                        .setRequestId(4)
                        .setTopic(TOPIC)))));
        assertFalse(admit(frame(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.GET_SCHEMA)
                .setGetSchema(CommandGetSchema.newBuilder().setRequestId(5).setTopic(TOPIC)))));
        assertFalse(admit(frame(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.PRODUCER)
                .setProducer(CommandProducer.newBuilder()
                        .setRequestId(6)
                        .setProducerId(1)
                        .setTopic(TOPIC)))));
        assertFalse(admit(frame(BaseCommand.newBuilder()
                .setType(BaseCommand.Type.GET_TOPICS_OF_NAMESPACE)
                .setGetTopicsOfNamespace(
                        CommandGetTopicsOfNamespace.newBuilder().setRequestId(7).setNamespace("public/default")))));

        List<BaseCommand> answers = harness.takeClientCommands();
        assertEquals(5, answers.size());
        CommandLookupTopicResponse lookup = answers.get(0).getLookupTopicResponse();
        assertEquals(3, lookup.getRequestId());
        assertEquals(CommandLookupTopicResponse.LookupType.Failed, lookup.getResponse());
        assertEquals(ServerError.TooManyRequests, lookup.getError());
        assertTrue(
                lookup.getMessage()
                        .startsWith("Sluice refused the request, throttled: role alice exceeds 2.0 requests/s"),
                lookup.getMessage());
        CommandPartitionedTopicMetadataResponse metadata = answers.get(1).getPartitionMetadataResponse();
        assertEquals(4, metadata.getRequestId());
        assertEquals(CommandPartitionedTopicMetadataResponse.LookupType.Failed, metadata.getResponse());
        assertEquals(ServerError.TooManyRequests, metadata.getError());
        assertEquals(5, answers.get(2).getGetSchemaResponse().getRequestId());
        assertEquals(
                ServerError.TooManyRequests,
                answers.get(2).getGetSchemaResponse().getErrorCode());
        assertEquals(BaseCommand.Type.ERROR, answers.get(3).getType());
        assertEquals(6, answers.get(3).getError().getRequestId());
        assertEquals(ServerError.TooManyRequests, answers.get(3).getError().getError());
        assertEquals(7, answers.get(4).getError().getRequestId());

        ThrottledClient throttled = harness.throttled().get(0);
        assertEquals("role", throttled.scope());
        assertEquals("work_requests", throttled.reason());
        assertEquals("reject", throttled.action());
        assertEquals("alice", throttled.identity().get("role"));
        assertEquals(null, throttled.topic());
        harness.advance(1_000);
        assertTrue(harness.throttled().isEmpty(), "over once the wait is");
        assertTrue(admit(lookup(8, TOPIC)), "refusals were not charged: the bucket refilled");
    }

    @Test
    void delayHoldsRequestsInOrderWhileOtherTopicsGoOn() {
        harness.limit(new ScopeRef(PulsarScopes.TOPIC, TOPIC), requests(10, 0.1, OnExceed.DELAY));
        assertTrue(admit(lookup(1, TOPIC)));
        assertFalse(admit(lookup(2, TOPIC)), "due as soon as the bucket has room, in a moment");
        assertFalse(admit(lookup(3, "public/default/orders")), "due 100 ms later");
        assertFalse(admit(lookup(4, "orders")), "and 100 ms after that");
        assertTrue(admit(lookup(5, "persistent://public/default/other")), "another topic is not slowed");
        assertTrue(harness.client.isEmpty(), "held, not answered");
        assertFalse(gate.isIdle());
        assertEquals("delay", harness.throttled().get(0).action());
        assertEquals(3, harness.throttled().get(0).heldMessages());

        harness.advance(1);
        assertEquals(List.of(2L), passedOnLookups());
        harness.advance(100);
        assertEquals(List.of(3L), passedOnLookups());
        harness.advance(100);
        assertEquals(List.of(4L), passedOnLookups());
        assertTrue(gate.isIdle());
        harness.advance(100);
        assertTrue(harness.throttled().isEmpty());
    }

    @Test
    void aWaitOverTenSecondsIsRefusedAndTheClientsAddressIsAScope() {
        harness.limit(new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME), requests(1, 1.5, OnExceed.DELAY));
        assertTrue(admit(lookup(0, TOPIC)));
        assertTrue(admit(lookup(1, TOPIC)), "admitted while the bucket is not empty");
        for (int i = 2; i <= 11; i++) {
            assertFalse(admit(lookup(i, TOPIC)));
        }
        assertTrue(harness.client.isEmpty(), "ten held, for 0.5 s to 9.5 s");
        assertFalse(admit(lookup(12, TOPIC)));
        assertEquals(
                ServerError.TooManyRequests,
                harness.takeClientCommands().get(0).getLookupTopicResponse().getError());
        assertEquals("ip", harness.throttled().get(0).scope());
    }

    @Test
    void aClosingConnectionReleasesWhatIsHeld() {
        harness.limit(new ScopeRef(PulsarScopes.TOPIC, TOPIC), requests(1, 1, OnExceed.DELAY));
        assertTrue(admit(lookup(1, TOPIC)));
        assertFalse(admit(lookup(2, TOPIC)));
        gate.close();
        assertTrue(gate.isIdle());
        assertTrue(harness.throttled().isEmpty());
        harness.advance(2_000);
        assertTrue(passedOn.isEmpty());
        assertEquals(0, harness.unreleasedBytes());
    }
}
