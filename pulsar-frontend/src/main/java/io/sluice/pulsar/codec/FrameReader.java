package io.sluice.pulsar.codec;

import io.sluice.relay.MalformedFrameException;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.sluice.pulsar.codec.proto.BaseCommand;

import java.io.IOException;

/**
 * Reads the command part of a frame produced by {@link FrameDecoder}, never its payload.
 *
 * <p>Two speeds: {@link #type} and {@link #readSend}/{@link #readSendReceipt} walk the protobuf wire
 * format in place without allocating (they run for every message); {@link #parse} builds a
 * {@link BaseCommand} for the rare control commands. Stateless; all methods leave the frame's
 * indexes untouched.
 */
public final class FrameReader {

    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH_DELIMITED = 2;
    private static final int WIRE_FIXED32 = 5;

    private FrameReader() {
    }

    /** Size of the command part of the frame. */
    public static int commandSize(ByteBuf frame) {
        return (int) frame.getUnsignedInt(frame.readerIndex() + 4);
    }

    /** Bytes after the command (for SEND and MESSAGE: checksum, metadata and payload). */
    public static int payloadSize(ByteBuf frame) {
        return frame.readableBytes() - 8 - commandSize(frame);
    }

    /**
     * The BaseCommand type number. A command that gives its type twice is malformed: the broker
     * acts on the last one, so routing on any single one would let a client smuggle one command
     * (a SEND past its quota) inside another.
     */
    public static int type(ByteBuf frame) {
        int pos = frame.readerIndex() + 8;
        int end = pos + commandSize(frame);
        if (end > frame.writerIndex()) {
            throw malformed("command extends past the frame");
        }
        Cursor c = new Cursor(frame, pos, end);
        boolean found = false;
        int type = 0;
        while (c.pos < end) {
            int tag = (int) c.readVarint();
            if (tag == (1 << 3 | WIRE_VARINT)) {
                if (found) {
                    throw malformed("command gives its type twice");
                }
                found = true;
                type = (int) c.readVarint();
            } else {
                c.skip(tag & 7);
            }
        }
        if (!found) {
            throw malformed("command has no type");
        }
        return type;
    }

    /** Parses the whole command part; for control commands only. */
    public static BaseCommand parse(ByteBuf frame) {
        int size = commandSize(frame);
        try {
            CodedInputStream in = CodedInputStream.newInstance(frame.nioBuffer(frame.readerIndex() + 8, size));
            return BaseCommand.parseFrom(in);
        } catch (InvalidProtocolBufferException e) {
            throw new MalformedFrameException("bad_command", "undecodable command: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new MalformedFrameException("bad_command", "unreadable command: " + e.getMessage(), e);
        }
    }

    /** Reads a SEND's fields into {@code out} without allocating. */
    public static void readSend(ByteBuf frame, SendFields out) {
        out.clear();
        Cursor c = nested(frame, 6);
        while (c.pos < c.end) {
            int tag = (int) c.readVarint();
            switch (tag) {
                case 1 << 3 -> out.producerId = c.readVarint();
                case 2 << 3 -> out.sequenceId = c.readVarint();
                case 3 << 3 -> out.numMessages = (int) c.readVarint();
                case 6 << 3 -> out.highestSequenceId = c.readVarint();
                case 7 << 3 -> out.chunk = c.readVarint() != 0;
                default -> c.skip(tag & 7);
            }
        }
    }

    /** Reads a SEND_RECEIPT's producer and sequence ids into {@code out}. */
    public static void readSendReceipt(ByteBuf frame, SendFields out) {
        readReceipt(frame, BaseCommand.Type.SEND_RECEIPT_VALUE, out);
    }

    /** Reads a SEND_ERROR's producer and sequence ids into {@code out}. */
    public static void readSendError(ByteBuf frame, SendFields out) {
        readReceipt(frame, BaseCommand.Type.SEND_ERROR_VALUE, out);
    }

    private static void readReceipt(ByteBuf frame, int type, SendFields out) {
        out.clear();
        Cursor c = nested(frame, type);
        while (c.pos < c.end) {
            int tag = (int) c.readVarint();
            switch (tag) {
                case 1 << 3 -> out.producerId = c.readVarint();
                case 2 << 3 -> out.sequenceId = c.readVarint();
                case 4 << 3 -> {
                    if (type == 7) {
                        out.highestSequenceId = c.readVarint();
                    } else {
                        c.skip(WIRE_VARINT);
                    }
                }
                default -> c.skip(tag & 7);
            }
        }
    }

    /**
     * The first field (an id such as consumer_id or producer_id) of the command nested under
     * BaseCommand field {@code type}; -1 when absent.
     */
    public static long readFirstId(ByteBuf frame, int type) {
        Cursor c = nested(frame, type);
        while (c.pos < c.end) {
            int tag = (int) c.readVarint();
            if (tag == 1 << 3) {
                return c.readVarint();
            }
            c.skip(tag & 7);
        }
        return -1;
    }

    /**
     * Messages in the entry a MESSAGE frame carries: MessageMetadata's num_messages_in_batch
     * (field 11, default 1), read after the optional broker-entry metadata and the checksum.
     */
    public static int messagesInEntry(ByteBuf frame) {
        int pos = frame.readerIndex() + 8 + commandSize(frame);
        int end = frame.writerIndex();
        if (pos + 2 <= end && frame.getUnsignedShort(pos) == 0x0e02) {
            if (pos + 6 > end) {
                throw malformed("truncated broker entry metadata");
            }
            long entryMetadataSize = frame.getUnsignedInt(pos + 2);
            if (entryMetadataSize > end - pos - 6) {
                throw malformed("broker entry metadata size " + entryMetadataSize + " out of bounds");
            }
            pos += 6 + (int) entryMetadataSize;
        }
        if (pos + 10 > end || frame.getUnsignedShort(pos) != 0x0e01) {
            throw malformed("message without metadata");
        }
        long metadataSize = frame.getUnsignedInt(pos + 6);
        pos += 10;
        if (metadataSize > end - pos) {
            throw malformed("metadata size " + metadataSize + " out of bounds");
        }
        Cursor c = new Cursor(frame, pos, pos + (int) metadataSize);
        while (c.pos < c.end) {
            int tag = (int) c.readVarint();
            if (tag == 11 << 3) {
                return (int) c.readVarint();
            }
            c.skip(tag & 7);
        }
        return 1;
    }

    /**
     * A cursor over the body of the BaseCommand field {@code field} (a nested message). The field
     * must occur once: the broker reads only the last occurrence, so a second one would make it
     * act on other ids than those Sluice accounted for.
     */
    private static Cursor nested(ByteBuf frame, int field) {
        long body = nestedBody(frame, field);
        return new Cursor(frame, (int) (body >>> 32), (int) body);
    }

    /**
     * Start and end of the body of field {@code field}, packed as {@code start << 32 | end}: a
     * cursor returned from here would escape and be allocated for every frame, one made by the
     * caller from two ints is not.
     */
    private static long nestedBody(ByteBuf frame, int field) {
        int pos = frame.readerIndex() + 8;
        int end = pos + commandSize(frame);
        Cursor c = new Cursor(frame, pos, end);
        int wanted = field << 3 | WIRE_LENGTH_DELIMITED;
        int bodyStart = -1;
        int bodyEnd = -1;
        while (c.pos < end) {
            int tag = (int) c.readVarint();
            if (tag == wanted) {
                if (bodyStart >= 0) {
                    throw malformed("command repeats field " + field);
                }
                long len = c.readVarint();
                if (len < 0 || len > end - c.pos) {
                    throw malformed("nested command length " + len + " out of bounds");
                }
                bodyStart = c.pos;
                bodyEnd = c.pos + (int) len;
                c.pos = bodyEnd;
            } else {
                c.skip(tag & 7);
            }
        }
        if (bodyStart < 0) {
            throw malformed("command lacks field " + field);
        }
        return (long) bodyStart << 32 | bodyEnd;
    }

    private static MalformedFrameException malformed(String message) {
        return new MalformedFrameException("bad_command", message);
    }

    /**
     * A position in a protobuf-encoded region. Escape analysis removes the allocation on the hot
     * path because a cursor never leaves the method that creates it (or the one it is returned to).
     */
    private static final class Cursor {
        private final ByteBuf buf;
        private int pos;
        private final int end;

        Cursor(ByteBuf buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        long readVarint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw malformed("truncated varint");
                }
                byte b = buf.getByte(pos++);
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw malformed("varint longer than 10 bytes");
        }

        void skip(int wireType) {
            switch (wireType) {
                case WIRE_VARINT -> readVarint();
                case WIRE_FIXED64 -> advance(8);
                case WIRE_LENGTH_DELIMITED -> {
                    long len = readVarint();
                    if (len < 0 || len > end - pos) {
                        throw malformed("field length " + len + " out of bounds");
                    }
                    advance((int) len);
                }
                case WIRE_FIXED32 -> advance(4);
                default -> throw malformed("unsupported wire type " + wireType);
            }
        }

        private void advance(int n) {
            if (pos + n > end) {
                throw malformed("field extends past the command");
            }
            pos += n;
        }
    }
}
