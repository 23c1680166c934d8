package io.sluice.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.PulsarFrameRule;
import io.sluice.pulsar.codec.SendFields;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandSend;
import io.sluice.relay.FrameView;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * What Sluice spends on one SEND before any quota decision: cutting the frame out of the byte
 * stream (the relay's FrameDecoder with {@link PulsarFrameRule}, in an {@code EmbeddedChannel}, so Netty's pipeline is included)
 * and reading its type and fields in place ({@link FrameReader#type}, {@link FrameReader#readSend}).
 * The rest of the inbound path needs a TCP connection to a broker and is left to the side-by-side suite.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar SendDecode -f 1 -wi 3 -w 2s -i 5 -r 2s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SendDecodeBenchmark {

    @Param({"100", "1024"})
    int payloadBytes;

    private ByteBuf frame;
    /** {@link #frame}, as the decoder would lend it. */
    private FrameView lent;

    private EmbeddedChannel channel;
    private final SendFields fields = new SendFields();
    private final ReadSend reader = new ReadSend();

    @Setup
    public void buildFrame() {
        frame = sendFrame(payloadBytes);
        lent = FrameView.of(frame);
        channel = new EmbeddedChannel(PulsarFrameRule.newDecoder(), reader);
    }

    @TearDown
    public void release() {
        frame.release();
        channel.finishAndReleaseAll();
    }

    /** Type and fields of a frame already cut out: what ClientHandler reads for every SEND. */
    @Benchmark
    public long readTypeAndSendFields() {
        if (FrameReader.type(lent) != BaseCommand.Type.SEND_VALUE) {
            throw new IllegalStateException("not a SEND");
        }
        FrameReader.readSend(lent, fields);
        return fields.sequenceId + fields.numMessages;
    }

    /**
     * The frame arriving as one read of bytes (copied into a buffer of the channel's allocator, as a
     * socket read fills one), lent by the decoder and read in place as above.
     */
    @Benchmark
    public long decodeAndReadSend() {
        channel.writeInbound(channel.alloc()
                .directBuffer(frame.readableBytes())
                .writeBytes(frame, frame.readerIndex(), frame.readableBytes()));
        return reader.fields.sequenceId + reader.type;
    }

    /** What ClientHandler does first with each frame the decoder lends it. */
    private static final class ReadSend extends ChannelInboundHandlerAdapter {
        private final SendFields fields = new SendFields();
        private int type;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FrameView frame = (FrameView) msg;
            type = FrameReader.type(frame);
            FrameReader.readSend(frame, fields);
        }
    }

    /** A SEND as a stock client writes it: command, magic, checksum, metadata, payload. */
    static ByteBuf sendFrame(int payloadBytes) {
        BaseCommand send = BaseCommand.newBuilder()
                .setType(BaseCommand.Type.SEND)
                .setSend(CommandSend.newBuilder()
                        .setProducerId(7)
                        .setSequenceId(123_456)
                        .setNumMessages(1))
                .build();
        ByteBuf command = FrameWriter.encode(ByteBufAllocator.DEFAULT, send);
        ByteBuf frame = Unpooled.directBuffer();
        frame.writeBytes(command);
        command.release();
        // MessageMetadata with producer_name "p" (1), sequence_id (2) and publish_time (3), by hand:
        // the proxy never reads a non-batched message's metadata, nor checks the CRC.
        byte[] metadata = {0x0a, 0x01, 'p', 0x10, (byte) 0xc0, (byte) 0xc4, 0x07, 0x18, 0x01};
        frame.writeShort(0x0e01);
        frame.writeInt(0);
        frame.writeInt(metadata.length);
        frame.writeBytes(metadata);
        frame.writeZero(payloadBytes);
        frame.setInt(0, frame.readableBytes() - 4);
        return frame;
    }
}
