package io.sluice.kafka.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.admission.LatencyWindow;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.gates.Exchange;
import io.sluice.kafka.routing.AdvertisedNodes;
import io.sluice.kafka.routing.ResponseRewriter;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.NodeAddresses;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.Outbound;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one way a broker's response goes to the client, against an in-memory client side: matched to
 * the oldest request, completed by its exchange, rewritten, sent (as the very bytes lent when
 * nothing changed), then Sluice's own answers that waited for it.
 */
@ExtendWith(LeakCheck.class)
class ResponseOrderTest {

    private static final String SLUICE = "sluice.example";
    private static final int NODE_PORT_BASE = 19_000;
    private static final short PRODUCE_VERSION = 12;

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final ClientSide client = new ClientSide();
    private final ResponseOrder order = new ResponseOrder(
            client,
            ResponseRewriter.rewriting(
                    new AdvertisedNodes(SLUICE, NODE_PORT_BASE, (id, host, port) -> {}), new TopicIds(8)),
            new LatencyWindow(),
            4);
    private final RequestHeader header = new RequestHeader();
    private final List<ByteBuf> toRelease = new ArrayList<>();

    @AfterEach
    void releaseAll() {
        order.close();
        client.sent.forEach(sent -> sent.frame.release());
        toRelease.forEach(ByteBuf::release);
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void aResponseNothingChangesGoesOnAsTheVeryBytesItsDecoderLent() {
        order.forwarded(join(1), null);
        ByteBuf read = ownCopy(KafkaFrames.response(new JoinGroupResponseData().setMemberId("m"), (short) 9, 1));
        FrameView lent = KafkaFrames.view(read);

        order.response(lent);

        Sent sent = client.sent.get(0);
        assertTrue(sent.lent, "handed on lent, with no frame of its own");
        assertSame(read, sent.lentFrom);
        assertEquals(lent.index() + "+" + lent.length(), sent.range);
        assertTrue(order.isEmpty());
    }

    @Test
    void theExchangeSeesTheBrokersResponseAndTheRewriterWhatTheExchangeMadeOfIt() {
        ByteBuf broker = ownCopy(KafkaFrames.response(new ProduceResponseData(), PRODUCE_VERSION, 1));
        List<Boolean> sawTheBrokersBytes = new ArrayList<>();
        RecordingExchange exchange = new RecordingExchange(response -> {
            sawTheBrokersBytes.add(response.frame().buffer() == broker);
            // A gate's new frame: one that names a moved leader, which the rewriter must see.
            response.replace(
                    copy(KafkaFrames.response(BrokerResponses.produce(PRODUCE_VERSION, true), PRODUCE_VERSION, 1)));
        });
        order.forwarded(produce(1), exchange);

        order.response(KafkaFrames.view(broker));

        assertEquals(List.of("completed"), exchange.events);
        assertEquals(List.of(true), sawTheBrokersBytes);
        Sent sent = client.sent.get(0);
        assertFalse(sent.lent, "a frame of Sluice's");
        ApiMessage read = KafkaFrames.asClientReads(sent.frame, ApiKeys.PRODUCE, PRODUCE_VERSION, 1)
                .data();
        List<NodeAddresses.Address> addresses = NodeAddresses.of(read, PRODUCE_VERSION);
        assertFalse(addresses.isEmpty());
        addresses.forEach(address -> assertEquals(
                new NodeAddresses.Address(address.nodeId(), SLUICE, NODE_PORT_BASE + address.nodeId()),
                address,
                "the exchange's frame rewritten for the client"));
    }

    @Test
    void sluicesOwnAnswersTakeTheirRequestsTurn() {
        order.answer(join(1), answer(1));
        order.forwarded(join(2), null);
        order.answer(join(3), answer(3));
        order.forwarded(join(4), null);
        order.answer(join(5), answer(5));
        assertEquals(List.of(1), client.correlationIds(), "nothing before it: at once");

        order.response(KafkaFrames.view(brokerJoin(2)));
        assertEquals(List.of(1, 2, 3), client.correlationIds());
        order.response(KafkaFrames.view(brokerJoin(4)));
        assertEquals(List.of(1, 2, 3, 4, 5), client.correlationIds());
        assertTrue(order.isEmpty());
    }

    @Test
    void aResponseThatFailsHalfWayReleasesWhatWasMadeOfItAndSendsNothing() {
        RecordingExchange exchange = new RecordingExchange(response -> {
            response.replace(alloc.heapBuffer(16).writeZero(16));
            throw new MalformedFrameException("bad_response_body", "unreadable");
        });
        order.forwarded(produce(1), exchange);

        MalformedFrameException e = assertThrows(
                MalformedFrameException.class,
                () -> order.response(KafkaFrames.view(
                        ownCopy(KafkaFrames.response(new ProduceResponseData(), PRODUCE_VERSION, 1)))));

        assertEquals("bad_response_body", e.reason());
        assertTrue(client.sent.isEmpty());
        assertTrue(order.isEmpty(), "the request is answered, if badly");
        order.close();
        assertEquals(List.of("completed"), exchange.events, "an exchange that completed is not abandoned too");
    }

    @Test
    void aResponseMustAnswerTheOldestRequest() {
        order.forwarded(join(1), null);
        MalformedFrameException e =
                assertThrows(MalformedFrameException.class, () -> order.response(KafkaFrames.view(brokerJoin(2))));
        assertEquals("unexpected_response", e.reason());
        assertTrue(client.sent.isEmpty());
    }

    @Test
    void pastItsCapacityARequestIsRefusedAndItsExchangeAbandoned() {
        for (int i = 0; i < 4; i++) {
            order.forwarded(join(i), null);
        }
        RecordingExchange exchange = new RecordingExchange(null);
        MalformedFrameException e =
                assertThrows(MalformedFrameException.class, () -> order.forwarded(join(5), exchange));
        assertEquals("too_many_in_flight", e.reason());
        assertEquals(List.of("abandoned"), exchange.events);
        assertThrows(MalformedFrameException.class, () -> order.answer(join(6), answer(6)));
    }

    @Test
    void closingReleasesTheAnswersThatWaitAndAbandonsTheExchanges() {
        RecordingExchange exchange = new RecordingExchange(null);
        order.forwarded(produce(1), exchange);
        ByteBuf waiting = answer(2);
        order.answer(join(2), waiting);

        order.close();

        assertEquals(List.of("abandoned"), exchange.events);
        assertEquals(0, waiting.refCnt());
        assertTrue(order.isEmpty());
    }

    private RequestHeader join(int correlationId) {
        return read(KafkaFrames.request(new JoinGroupRequestData(), (short) 9, correlationId, "c"));
    }

    private RequestHeader produce(int correlationId) {
        return read(
                KafkaFrames.request(new ProduceRequestData().setAcks((short) -1), PRODUCE_VERSION, correlationId, "c"));
    }

    private RequestHeader read(ByteBuf request) {
        try {
            return header.read(KafkaFrames.view(request));
        } finally {
            request.release();
        }
    }

    /** The broker's answer to JoinGroup request {@code correlationId}, as its decoder would lend it. */
    private ByteBuf brokerJoin(int correlationId) {
        return ownCopy(KafkaFrames.response(new JoinGroupResponseData().setMemberId("m"), (short) 9, correlationId));
    }

    /** An answer of Sluice's own to request {@code correlationId}; the caller hands it on. */
    private ByteBuf answer(int correlationId) {
        return alloc.heapBuffer().writeInt(4).writeInt(correlationId);
    }

    /** {@code frame} copied into this test's allocator, which is checked for leaks, and released at the end. */
    private ByteBuf ownCopy(ByteBuf frame) {
        ByteBuf copy = copy(frame);
        toRelease.add(copy);
        return copy;
    }

    /** {@code frame} copied into this test's allocator, {@code frame} released; the caller owns the copy. */
    private ByteBuf copy(ByteBuf frame) {
        ByteBuf copy = alloc.heapBuffer(frame.readableBytes()).writeBytes(frame);
        frame.release();
        return copy;
    }

    /** An exchange that notes what became of it and, when completed, does {@code completion} (if any). */
    private static final class RecordingExchange implements Exchange {

        final List<String> events = new ArrayList<>();
        private final Consumer<ResponseFrame> completion;

        RecordingExchange(Consumer<ResponseFrame> completion) {
            this.completion = completion;
        }

        @Override
        public void complete(ResponseFrame response) {
            events.add("completed");
            if (completion != null) {
                completion.accept(response);
            }
        }

        @Override
        public void abandon() {
            events.add("abandoned");
        }
    }

    /** What went to the client: a frame of its own, or a lent one (then a copy, and where it was lent from). */
    private record Sent(ByteBuf frame, boolean lent, ByteBuf lentFrom, String range) {}

    /** The client side of the connection, keeping what it is sent. */
    private final class ClientSide implements Outbound {

        final List<Sent> sent = new ArrayList<>();

        @Override
        public void toClient(ByteBuf frame) {
            sent.add(new Sent(frame, false, null, null));
        }

        @Override
        public void toClient(FrameView frame) {
            sent.add(new Sent(frame.retainedSlice(), true, frame.buffer(), frame.index() + "+" + frame.length()));
        }

        @Override
        public void toUpstream(ByteBuf frame) {
            frame.release();
            throw new AssertionError("responses go to the client");
        }

        @Override
        public void flush() {}

        @Override
        public ByteBufAllocator alloc() {
            return alloc;
        }

        List<Integer> correlationIds() {
            List<Integer> ids = new ArrayList<>();
            sent.forEach(s -> ids.add(s.frame.getInt(s.frame.readerIndex() + 4)));
            return ids;
        }
    }
}
