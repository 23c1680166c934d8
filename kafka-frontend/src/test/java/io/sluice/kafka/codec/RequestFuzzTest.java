package io.sluice.kafka.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.connection.FrameDecoder;
import io.sluice.relay.connection.FrameRule;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.FuzzCorpus;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary client bytes through the client side of the codec: the relay's {@link FrameDecoder}
 * with Kafka's {@link FrameRule#INT32_SIZE}, then for each frame {@link RequestHeader},
 * {@link ProduceRequestReader#acks}, {@link NewWorkRefusal} and {@link InFlightRequests}.
 * The only exception that may escape is {@link MalformedFrameException}; where Kafka's own parsers
 * read the same frame, Sluice must read the same header fields and acks; readers leave the frame's
 * indexes alone; every buffer is released.
 *
 * <p>Seeds ({@code RequestFuzzTestInputs/clientBytes}): request frames and whole connections of a
 * real producer, consumer and admin client (see {@link RealClientRequestsTest}), and the inputs of
 * bugs found.
 */
@ExtendWith(LeakCheck.class)
class RequestFuzzTest {

    private static final int GENERATED_INPUTS = 2_000;

    @FuzzTest(maxDuration = "10m")
    void clientBytes(byte[] input) {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        EmbeddedChannel channel =
                new EmbeddedChannel(new FrameDecoder(FrameRule.INT32_SIZE, 64 * 1024), new ReadEveryRequest());
        channel.config().setAllocator(alloc);
        int split = input.length == 0 ? 0 : (input[0] & 0xff) % (input.length + 1);
        try {
            channel.writeInbound(alloc.heapBuffer(split).writeBytes(input, 0, split));
            channel.writeInbound(alloc.heapBuffer(input.length - split).writeBytes(input, split, input.length - split));
        } catch (MalformedFrameException expected) {
            // The proxy closes such a connection.
        } finally {
            channel.finishAndReleaseAll();
        }
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void generatedInputs() {
        new ByteMutator(20_261_130L, FuzzCorpus.of(RequestFuzzTest.class, "clientBytes"))
                .feed(GENERATED_INPUTS, input -> clientBytes(input));
    }

    /** Reads each request as the proxy would, comparing with Kafka's own parsers where they succeed. */
    private static final class ReadEveryRequest extends ChannelInboundHandlerAdapter {

        private final RequestHeader header = new RequestHeader();
        private final WireCursor cursor = new WireCursor();
        private final InFlightRequests<Void> inFlight = new InFlightRequests<>(8);
        private final ShareFetchRequestReader shareFetch = new ShareFetchRequestReader();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FrameView lent = (FrameView) msg;
            ByteBuf buffer = lent.buffer();
            int reader = buffer.readerIndex();
            int writer = buffer.writerIndex();
            // The frame's own bytes, to compare with what Kafka reads; the readers read the lent frame.
            ByteBuf frame = lent.retainedSlice();
            try {
                header.read(lent);
                compareWithKafka(lent, frame);
                boolean answered = true;
                if (header.apiKey() == ApiKeys.PRODUCE.id) {
                    short acks = ProduceRequestReader.acks(lent, header, cursor);
                    answered = acks != 0;
                    ProduceRequestData kafka = kafkaBody(lent, frame);
                    if (kafka != null) {
                        assertEquals(kafka.acks(), acks, "acks differ from Kafka's");
                    }
                }
                if (header.apiKey() == ApiKeys.SHARE_FETCH.id && HandledApi.SHARE_FETCH.supports(header.apiVersion())) {
                    compareShareFetch(lent, frame);
                }
                if (NewWorkRefusal.startsNewWork(header.apiKey())) {
                    NewWorkRefusal.startsProducer(lent, header);
                    NewWorkRefusal.answer(ctx.alloc(), lent, header, "refused").release();
                }
                if (answered && !header.isNewerApiVersions()) {
                    inFlight.add(header.apiKey(), header.apiVersion(), header.correlationId(), 0, null);
                }
                assertEquals(reader, buffer.readerIndex(), "reader index moved");
                assertEquals(writer, buffer.writerIndex(), "writer index moved");
            } finally {
                frame.release();
            }
        }

        private void compareWithKafka(FrameView lent, ByteBuf frame) {
            ByteBuffer bytes = ByteBuffer.wrap(KafkaFrames.frameBytes(frame));
            bytes.position(4);
            org.apache.kafka.common.requests.RequestHeader kafka;
            try {
                kafka = org.apache.kafka.common.requests.RequestHeader.parse(bytes);
            } catch (RuntimeException unreadable) {
                return;
            }
            assertEquals(kafka.apiKey().id, header.apiKey());
            assertEquals(kafka.apiVersion(), header.apiVersion());
            assertEquals(kafka.correlationId(), header.correlationId());
            // Kafka reads a null client id as an empty one.
            assertEquals(kafka.clientId(), header.hasClientId() ? header.clientId(lent) : "");
            assertEquals(bytes.position(), header.bodyIndex() - lent.index(), "body starts elsewhere than for Kafka");
            assertTrue(header.bodyIndex() <= lent.index() + lent.length());
        }

        /**
         * A ShareFetch request read in place as Kafka reads it: the fields the share fetch gate acts on,
         * and where it would lower max_records and max_bytes.
         */
        private void compareShareFetch(FrameView lent, ByteBuf frame) {
            ShareFetchRequestReader read;
            try {
                read = shareFetch.read(lent, header, cursor);
            } catch (MalformedFrameException unreadable) {
                return;
            }
            ByteBuffer body = ByteBuffer.wrap(KafkaFrames.frameBytes(frame));
            body.position(header.bodyIndex() - lent.index());
            ShareFetchRequestData kafka;
            try {
                kafka = new ShareFetchRequestData(new ByteBufferAccessor(body), header.apiVersion());
            } catch (RuntimeException unreadable) {
                return;
            }
            assertEquals(kafka.shareSessionEpoch(), read.sessionEpoch());
            assertEquals(kafka.maxWaitMs(), read.maxWaitMillis());
            assertEquals(kafka.maxBytes(), read.maxBytes());
            assertEquals(kafka.maxRecords(), read.maxRecords());
            assertEquals(kafka.maxRecords(), lent.buffer().getInt(lent.index() + read.maxRecordsOffset()));
            assertEquals(kafka.maxBytes(), lent.buffer().getInt(lent.index() + read.maxBytesOffset()));
            assertEquals(kafka.topics().size(), read.topicCount());
            int t = 0;
            for (ShareFetchRequestData.FetchTopic topic : kafka.topics()) {
                assertEquals(topic.topicId().getMostSignificantBits(), read.topicIdMsb(t));
                assertEquals(topic.topicId().getLeastSignificantBits(), read.topicIdLsb(t++));
            }
            assertEquals(kafka.forgottenTopicsData().size(), read.forgottenCount());
        }

        /** The Produce body as Kafka reads it, or null when Kafka cannot. */
        private ProduceRequestData kafkaBody(FrameView lent, ByteBuf frame) {
            ByteBuffer body = ByteBuffer.wrap(KafkaFrames.frameBytes(frame));
            body.position(header.bodyIndex() - lent.index());
            try {
                return new ProduceRequestData(new ByteBufferAccessor(body), header.apiVersion());
            } catch (RuntimeException unreadable) {
                return null;
            }
        }
    }
}
