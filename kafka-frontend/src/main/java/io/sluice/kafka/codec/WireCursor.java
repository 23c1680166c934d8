package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;

/**
 * Reads Kafka's primitive types in place, from an index of a frame to its end, without moving the
 * buffer's own indexes or allocating. Reading past the end raises a {@link MalformedFrameException}
 * with the reason the cursor was set up with. One instance is reused for every frame of a
 * connection, on its event loop.
 */
public final class WireCursor {

    private ByteBuf buf;
    private int index;
    private int end;
    private String reason = "bad_frame";

    /**
     * Points the cursor at {@code frame} from {@code index} (an index into its buffer) to the frame's
     * end; errors will carry {@code reason}.
     */
    public WireCursor reset(FrameView frame, int index, String reason) {
        this.buf = frame.buffer();
        this.index = index;
        this.end = frame.index() + frame.length();
        this.reason = reason;
        return this;
    }

    public int index() {
        return index;
    }

    public int remaining() {
        return end - index;
    }

    public byte int8() {
        require(1);
        return buf.getByte(index++);
    }

    public short int16() {
        require(2);
        short value = buf.getShort(index);
        index += 2;
        return value;
    }

    public int int32() {
        require(4);
        int value = buf.getInt(index);
        index += 4;
        return value;
    }

    public long int64() {
        require(8);
        long value = buf.getLong(index);
        index += 8;
        return value;
    }

    /** An unsigned varint of at most five bytes, as Kafka writes lengths, counts and tags. */
    public int unsignedVarint() {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = int8();
            value |= (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw malformed("varint longer than five bytes");
    }

    /** Skips a zig-zag varint ({@code maxBytes} 5) or varlong ({@code maxBytes} 10). */
    public void skipVarint(int maxBytes) {
        for (int i = 0; i < maxBytes; i++) {
            if (int8() >= 0) {
                return;
            }
        }
        throw malformed("varint longer than " + maxBytes + " bytes");
    }

    public void skip(int bytes) {
        if (bytes < 0) {
            throw malformed("negative length " + bytes);
        }
        require(bytes);
        index += bytes;
    }

    /** A length written as an unsigned varint of length + 1, 0 meaning null: returns -1 for null. */
    public int compactLength() {
        int lengthPlusOne = unsignedVarint();
        if (lengthPlusOne < 0) {
            throw malformed("compact length " + Integer.toUnsignedString(lengthPlusOne) + " out of range");
        }
        return lengthPlusOne - 1;
    }

    /** Skips a tagged-field section: a count, then each field's tag, size and bytes. */
    public void skipTaggedFields() {
        int count = unsignedVarint();
        if (count < 0) {
            throw malformed("tagged field count " + Integer.toUnsignedString(count) + " out of range");
        }
        for (int i = 0; i < count; i++) {
            unsignedVarint();
            skip(unsignedVarint());
        }
    }

    /** Skips a string or byte array whose length (-1 for null) was just read. */
    public void skipSized(int length) {
        if (length < -1) {
            throw malformed("length " + length + " is negative");
        }
        if (length > 0) {
            skip(length);
        }
    }

    public MalformedFrameException malformed(String message) {
        return new MalformedFrameException(reason, message);
    }

    private void require(int bytes) {
        if (end - index < bytes) {
            throw malformed(
                    "needs " + bytes + " more bytes at offset " + index + " but only " + (end - index) + " remain");
        }
    }
}
