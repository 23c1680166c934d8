package io.sluice.pulsar.codec;

import io.sluice.relay.MalformedFrameException;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandSend;
import io.sluice.pulsar.codec.proto.CommandSendReceipt;

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

    /** totalSize and commandSize, each a 4-byte int, before the command. */
    private static final int SIZES = 8;
    /** The two-byte markers of a payload's parts: the CRC32C checksum, and broker entry metadata before it. */
    private static final int MAGIC_CRC32C = 0x0e01;
    private static final int MAGIC_BROKER_ENTRY_METADATA = 0x0e02;
    /** MessageMetadata.num_messages_in_batch, which our proto subset does not declare. */
    private static final int NUM_MESSAGES_IN_BATCH_FIELD = 11;

    private static final int TYPE_TAG = tag(BaseCommand.TYPE_FIELD_NUMBER, WIRE_VARINT);
    private static final int PRODUCER_ID_TAG = tag(CommandSend.PRODUCER_ID_FIELD_NUMBER, WIRE_VARINT);
    private static final int SEQUENCE_ID_TAG = tag(CommandSend.SEQUENCE_ID_FIELD_NUMBER, WIRE_VARINT);
    private static final int NUM_MESSAGES_TAG = tag(CommandSend.NUM_MESSAGES_FIELD_NUMBER, WIRE_VARINT);
    private static final int SEND_HIGHEST_SEQUENCE_ID_TAG = tag(CommandSend.HIGHEST_SEQUENCE_ID_FIELD_NUMBER, WIRE_VARINT);
    private static final int IS_CHUNK_TAG = tag(CommandSend.IS_CHUNK_FIELD_NUMBER, WIRE_VARINT);
    private static final int RECEIPT_HIGHEST_SEQUENCE_ID_TAG = tag(CommandSendReceipt.HIGHEST_SEQUENCE_ID_FIELD_NUMBER, WIRE_VARINT);
    private static final int FIRST_ID_TAG = tag(1, WIRE_VARINT);

    private FrameReader() {
    }

    /** Size of the command part of the frame. */
    public static int commandSize(ByteBuf frame) {
        return (int) frame.getUnsignedInt(frame.readerIndex() + Integer.BYTES);
    }

    /** Bytes after the command (for SEND and MESSAGE: checksum, metadata and payload). */
    public static int payloadSize(ByteBuf frame) {
        return frame.readableBytes() - SIZES - commandSize(frame);
    }

    /**
     * The BaseCommand type number. A command that gives its type twice is malformed: the broker
     * acts on the last one, so routing on any single one would let a client smuggle one command
     * (a SEND past its quota) inside another.
     */
    public static int type(ByteBuf frame) {
        int pos = frame.readerIndex() + SIZES;
        int end = pos + commandSize(frame);
        if (end > frame.writerIndex()) {
            throw malformed("command extends past the frame");
        }
        Cursor c = new Cursor(frame, pos, end);
        boolean found = false;
        int type = 0;
        while (c.pos < end) {
            int tag = (int) c.readVarint();
            if (tag == TYPE_TAG) {
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
            CodedInputStream in = CodedInputStream.newInstance(frame.nioBuffer(frame.readerIndex() + SIZES, size));
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
        Cursor c = nested(frame, BaseCommand.SEND_FIELD_NUMBER);
        while (c.pos < c.end) {
            int tag = (int) c.readVarint();
            if (tag == PRODUCER_ID_TAG) {
                out.producerId = c.readVarint();
            } else if (tag == SEQUENCE_ID_TAG) {
                out.sequenceId = c.readVarint();
            } else if (tag == NUM_MESSAGES_TAG) {
                out.numMessages = (int) c.readVarint();
            } else if (tag == SEND_HIGHEST_SEQUENCE_ID_TAG) {
                out.highestSequenceId = c.readVarint();
            } else if (tag == IS_CHUNK_TAG) {
                out.chunk = c.readVarint() != 0;
            } else {
                c.skip(tag & 7);
            }
        }
    }

    /** Reads a SEND_RECEIPT's producer and sequence ids into {@code out}. */
    public static void readSendReceipt(ByteBuf frame, SendFields out) {
        readReceipt(frame, BaseCommand.SEND_RECEIPT_FIELD_NUMBER, out);
    }

    /** Reads a SEND_ERROR's producer and sequence ids into {@code out}. */
    public static void readSendError(ByteBuf frame, SendFields out) {
        readReceipt(frame, BaseCommand.SEND_ERROR_FIELD_NUMBER, out);
    }

    /** SEND_RECEIPT and SEND_ERROR share field numbers 1 and 2; only a receipt has highest_sequence_id at 4. */
    private static void readReceipt(ByteBuf frame, int commandField, SendFields out) {
        out.clear();
        boolean receipt = commandField == BaseCommand.SEND_RECEIPT_FIELD_NUMBER;
        Cursor c = nested(frame, commandField);
        while (c.pos < c.end) {
            int tag = (int) c.readVarint();
            if (tag == PRODUCER_ID_TAG) {
                out.producerId = c.readVarint();
            } else if (tag == SEQUENCE_ID_TAG) {
                out.sequenceId = c.readVarint();
            } else if (receipt && tag == RECEIPT_HIGHEST_SEQUENCE_ID_TAG) {
                out.highestSequenceId = c.readVarint();
            } else {
                c.skip(tag & 7);
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
            if (tag == FIRST_ID_TAG) {
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
        int pos = frame.readerIndex() + SIZES + commandSize(frame);
        int end = frame.writerIndex();
        if (pos + 2 <= end && frame.getUnsignedShort(pos) == MAGIC_BROKER_ENTRY_METADATA) {
            if (pos + 6 > end) {
                throw malformed("truncated broker entry metadata");
            }
            long entryMetadataSize = frame.getUnsignedInt(pos + 2);
            if (entryMetadataSize > end - pos - 6) {
                throw malformed("broker entry metadata size " + entryMetadataSize + " out of bounds");
            }
            pos += 6 + (int) entryMetadataSize;
        }
        // magic (2), checksum (4), metadata size (4)
        if (pos + 10 > end || frame.getUnsignedShort(pos) != MAGIC_CRC32C) {
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
            if (tag == tag(NUM_MESSAGES_IN_BATCH_FIELD, WIRE_VARINT)) {
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
        int pos = frame.readerIndex() + SIZES;
        int end = pos + commandSize(frame);
        Cursor c = new Cursor(frame, pos, end);
        int wanted = tag(field, WIRE_LENGTH_DELIMITED);
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

    /** A protobuf field key: the field number and its wire type. */
    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
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
