package io.sluice.pulsar.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Regression for a fuzz finding: the broker acts on the last BaseCommand type and the last
 * nested command it finds, while FrameReader used the first. A client could then route a SEND past
 * Sluice's quotas inside a frame Sluice took for a PING, or charge one producer's quota for another
 * producer's send. Such frames are now malformed.
 */
class CommandSmugglingTest {

    @Test
    void aCommandGivingItsTypeTwiceIsMalformed() {
        // type PING (18), then type SEND (6) with send {producer_id 1, sequence_id 0}.
        ByteBuf frame = frame("0812" + "0806" + "3204" + "08011000");
        try {
            assertThrows(MalformedFrameException.class, () -> FrameReader.type(FrameView.of(frame)));
        } finally {
            frame.release();
        }
    }

    @Test
    void theFuzzersFirstInputIsMalformed() {
        // Found by FrameFuzzTest: ACK for Sluice, SUBSCRIBE for the broker.
        ByteBuf frame = Unpooled.wrappedBuffer(HexFormat.of().parseHex("000000120000000e080a5204000000001a0008041000"));
        try {
            assertThrows(MalformedFrameException.class, () -> FrameReader.type(FrameView.of(frame)));
        } finally {
            frame.release();
        }
    }

    @Test
    void aSendGivingItsBodyTwiceIsMalformed() {
        // send {producer_id 1} then send {producer_id 2}: the broker would publish for producer 2.
        ByteBuf frame = frame("0806" + "32020801" + "32020802");
        try {
            assertThrows(
                    MalformedFrameException.class, () -> FrameReader.readSend(FrameView.of(frame), new SendFields()));
        } finally {
            frame.release();
        }
    }

    /** A frame of the hex-encoded command and no payload. */
    private static ByteBuf frame(String commandHex) {
        byte[] command = HexFormat.of().parseHex(commandHex);
        return Unpooled.buffer()
                .writeInt(4 + command.length)
                .writeInt(command.length)
                .writeBytes(command);
    }
}
