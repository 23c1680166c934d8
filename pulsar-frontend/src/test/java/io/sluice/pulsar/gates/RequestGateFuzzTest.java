package io.sluice.pulsar.gates;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandGetTopicsOfNamespace;
import io.sluice.pulsar.codec.proto.CommandLookupTopic;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Arbitrary commands of every type the request gate counts, as a client may send them, through a
 * gate whose limits make it read each one: the only exception that may escape is
 * {@link MalformedFrameException}, and whatever is held, answered or passed on is released.
 */
@ExtendWith(LeakCheck.class)
class RequestGateFuzzTest {

    private static final int GENERATED_INPUTS = 2_000;

    private static final int[] COUNTED = {
        BaseCommand.Type.LOOKUP_VALUE,
        BaseCommand.Type.PARTITIONED_METADATA_VALUE,
        BaseCommand.Type.PRODUCER_VALUE,
        BaseCommand.Type.SUBSCRIBE_VALUE,
        BaseCommand.Type.GET_TOPICS_OF_NAMESPACE_VALUE,
        BaseCommand.Type.GET_SCHEMA_VALUE
    };

    @FuzzTest(maxDuration = "5m")
    void admit(byte[] command) {
        try (GateHarness harness = new GateHarness()) {
            List<ByteBuf> passedOn = new ArrayList<>();
            harness.limit(
                    new ScopeRef(PulsarScopes.ROLE, ScopeKind.DEFAULT_NAME),
                    Limit.requests(new EventRate(2.0, 1.0)).withOnExceed(OnExceed.DELAY));
            harness.limit(
                    new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME),
                    Limit.requests(new EventRate(3.0, 1.0)).withOnExceed(OnExceed.REJECT));
            RequestGate gate = harness.requestGate(passedOn::add);
            gate.authenticated("fuzz");
            ByteBuf frame = Unpooled.buffer(8 + command.length)
                    .writeInt(4 + command.length)
                    .writeInt(command.length)
                    .writeBytes(command);
            try {
                for (int type : COUNTED) {
                    gate.admit(FrameView.of(frame), type);
                }
            } catch (MalformedFrameException expected) {
                // The proxy closes such a connection.
            } finally {
                frame.release();
            }
            harness.advance(20_000);
            gate.close();
            passedOn.forEach(ByteBuf::release);
            assertEquals(0, frame.refCnt());
        }
    }

    @Test
    void generatedInputs() {
        new ByteMutator(37_2026L, seeds()).feed(GENERATED_INPUTS, input -> admit(input));
    }

    /** Commands a client sends, without their sizes: a lookup, a namespace's topic list. */
    private static List<byte[]> seeds() {
        List<byte[]> seeds = new ArrayList<>();
        for (BaseCommand command : List.of(
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.LOOKUP)
                        .setLookupTopic(CommandLookupTopic.newBuilder()
                                .setRequestId(1)
                                .setTopic("persistent://public/default/orders"))
                        .build(),
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.GET_TOPICS_OF_NAMESPACE)
                        .setGetTopicsOfNamespace(CommandGetTopicsOfNamespace.newBuilder()
                                .setRequestId(2)
                                .setNamespace("public/default"))
                        .build())) {
            ByteBuf frame = FrameWriter.encode(Unpooled.buffer().alloc(), command);
            try {
                byte[] bytes = new byte[frame.readableBytes() - 8];
                frame.getBytes(8, bytes);
                seeds.add(bytes);
            } finally {
                frame.release();
            }
        }
        return seeds;
    }
}
