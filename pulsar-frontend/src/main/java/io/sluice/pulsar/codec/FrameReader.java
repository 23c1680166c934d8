package io.sluice.pulsar.codec;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandSend;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;

import java.io.IOException;

/**
 * Reads the command part of a frame, never its payload. Every reader takes the frame as a
 * {@link FrameView}: as the relay's decoder lends it ({@link PulsarFrameRule#newDecoder}), or, for a
 * frame in a buffer of its own (a retained slice, a frame Sluice wrote), {@link FrameView#of} its
 * readable bytes.
 *
 * <p>Two speeds: {@link #read}, {@link #readSend} and {@link #readFirstId} walk the protobuf wire
 * format without allocating (they run for every message): {@code read} copies the command's few
 * bytes once into a connection's {@link FrameCommand} and notes its type and nested command, which
 * the field readers then walk; {@link #parse} builds a {@link BaseCommand} for the rare control
 * commands. The readers that take a frame instead of a {@code FrameCommand} read it into one of the
 * calling thread's. All methods leave the frame's indexes untouched.
 *
 * <p>The fast readers keep their position in an {@code int} passed from method to method, never in
 * a cursor object: escape analysis does not remove such an object in the running proxy once a
 * method it is passed to is not inlined, and it was then allocated for every frame read. A varint
 * comes back with the position after it packed into one {@code long} ({@link #varint32},
 * {@link #smallVarint}), so that each byte is read once.
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
    private static final int SEND_HIGHEST_SEQUENCE_ID_TAG =
            tag(CommandSend.HIGHEST_SEQUENCE_ID_FIELD_NUMBER, WIRE_VARINT);
    private static final int IS_CHUNK_TAG = tag(CommandSend.IS_CHUNK_FIELD_NUMBER, WIRE_VARINT);
    private static final int FIRST_ID_TAG = tag(1, WIRE_VARINT);
    private static final int NUM_MESSAGES_IN_BATCH_TAG = tag(NUM_MESSAGES_IN_BATCH_FIELD, WIRE_VARINT);
    /** MessageMetadata.compression (8, NONE is 0) and uncompressed_size (9). */
    private static final int COMPRESSION_TAG = tag(8, WIRE_VARINT);

    private static final int UNCOMPRESSED_SIZE_TAG = tag(9, WIRE_VARINT);
    /**
     * The fewest bytes one message of a batch takes: the 4-byte size of its SingleMessageMetadata
     * and that metadata's one required field, payload_size (a tag and at least one byte); its
     * payload may be empty.
     */
    public static final int SMALLEST_BATCHED_MESSAGE = 6;
    /** A 64-bit varint takes at most 10 bytes of 7 bits. */
    private static final int MAX_VARINT_BYTES = 10;
    /** What {@link #smallVarint} returns for a varint it leaves to the general reader. */
    private static final long NOT_SMALL = -1;
    /** The largest scratch array a thread keeps: metadata larger than this is copied into one of its own. */
    private static final int MAX_SCRATCH = 64 * 1024;

    /** The command read by the readers that take a frame, not a {@link FrameCommand}: one a thread. */
    private static final FastThreadLocal<FrameCommand> COMMAND = new FastThreadLocal<>() {
        @Override
        protected FrameCommand initialValue() {
            return new FrameCommand();
        }
    };

    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[512];
        }
    };

    private FrameReader() {}

    /** Bytes after the command (for SEND and MESSAGE: checksum, metadata and payload). */
    public static int payloadSize(FrameView frame) {
        return frame.length() - SIZES - commandSize(frame.buffer(), frame.index());
    }

    /**
     * The BaseCommand type number. A command that gives its type twice is malformed: the broker
     * acts on the last one, so routing on any single one would let a client smuggle one command
     * (a SEND past its quota) inside another.
     */
    public static int type(FrameView frame) {
        return read(frame, COMMAND.get()).type;
    }

    /**
     * Reads the frame's command into {@code into} (its type, as {@link #type(FrameView)} reads it,
     * and a copy of its bytes) for the readers that take a {@link FrameCommand}; returns it.
     */
    public static FrameCommand read(FrameView frame, FrameCommand into) {
        int end = commandEnd(frame);
        byte[] buf = into.room(end);
        frame.buffer().getBytes(frame.index(), buf, 0, end);
        boolean found = false;
        int type = 0;
        int nestedField = 0;
        int nestedStart = 0;
        int nestedEnd = 0;
        int pos = SIZES;
        while (pos < end) {
            long tag = varint32(buf, pos, end);
            pos = after(tag);
            int wireType = (int) tag & 7;
            if ((int) tag == TYPE_TAG) {
                if (found) {
                    throw malformed("command gives its type twice");
                }
                found = true;
                long value = varint32(buf, pos, end);
                type = (int) value;
                pos = after(value);
            } else if (wireType == WIRE_LENGTH_DELIMITED) {
                int start = varintEnd(buf, pos, end);
                long len = varint(buf, pos);
                if (len < 0 || len > end - start) {
                    throw malformed("field length " + len + " out of bounds");
                }
                // One nested command is the rule; any more, and the nested readers walk again.
                nestedField = nestedField == 0 ? (int) (tag >>> 3) : -1;
                nestedStart = start;
                nestedEnd = start + (int) len;
                pos = nestedEnd;
            } else {
                pos = skip(buf, pos, end, wireType);
            }
        }
        if (!found) {
            throw malformed("command has no type");
        }
        into.end = end;
        into.type = type;
        into.onlyNestedField = nestedField == 0 ? -1 : nestedField;
        into.onlyNestedStart = nestedStart;
        into.onlyNestedEnd = nestedEnd;
        return into;
    }

    /** Parses the whole command part; for control commands only. */
    public static BaseCommand parse(FrameView frame) {
        int size = commandSize(frame.buffer(), frame.index());
        try {
            CodedInputStream in = CodedInputStream.newInstance(frame.buffer().nioBuffer(frame.index() + SIZES, size));
            return BaseCommand.parseFrom(in);
        } catch (InvalidProtocolBufferException e) {
            throw new MalformedFrameException("bad_command", "undecodable command: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new MalformedFrameException("bad_command", "unreadable command: " + e.getMessage(), e);
        }
    }

    /** Reads a SEND's fields into {@code out} without allocating. */
    public static void readSend(FrameView frame, SendFields out) {
        readSend(read(frame, COMMAND.get()), out);
    }

    /** Reads the fields of the SEND {@code command} holds into {@code out} without allocating. */
    public static void readSend(FrameCommand command, SendFields out) {
        out.clear();
        byte[] buf = command.bytes;
        long body = nestedBody(command, BaseCommand.SEND_FIELD_NUMBER);
        int pos = (int) (body >>> 32);
        int end = (int) body;
        while (pos < end) {
            long tagAt = varint32(buf, pos, end);
            int tag = (int) tagAt;
            pos = after(tagAt);
            if (tag == NUM_MESSAGES_TAG) {
                long value = varint32(buf, pos, end);
                out.numMessages = (int) value;
                pos = after(value);
            } else if (tag == PRODUCER_ID_TAG
                    || tag == SEQUENCE_ID_TAG
                    || tag == SEND_HIGHEST_SEQUENCE_ID_TAG
                    || tag == IS_CHUNK_TAG) {
                pos = readField(buf, pos, end, tag, out);
            } else {
                pos = skip(buf, pos, end, tag & 7);
            }
        }
    }

    /**
     * The first field (an id such as consumer_id or producer_id) of the command nested under
     * BaseCommand field {@code type}; -1 when absent.
     */
    public static long readFirstId(FrameView frame, int type) {
        return readFirstId(read(frame, COMMAND.get()), type);
    }

    /** As {@link #readFirstId(FrameView, int)}, from the command {@code command} holds. */
    public static long readFirstId(FrameCommand command, int type) {
        byte[] buf = command.bytes;
        long body = nestedBody(command, type);
        int pos = (int) (body >>> 32);
        int end = (int) body;
        while (pos < end) {
            long tag = varint32(buf, pos, end);
            pos = after(tag);
            if ((int) tag == FIRST_ID_TAG) {
                varintEnd(buf, pos, end);
                return varint(buf, pos);
            }
            pos = skip(buf, pos, end, (int) tag & 7);
        }
        return -1;
    }

    /**
     * Messages in the entry a MESSAGE frame carries: MessageMetadata's num_messages_in_batch
     * (field 11, default 1), read after the optional broker-entry metadata and the checksum.
     */
    public static int messagesInEntry(FrameView frame) {
        ByteBuf buf = frame.buffer();
        int pos = frame.index() + SIZES + commandSize(buf, frame.index());
        int end = frame.index() + frame.length();
        if (pos + 2 <= end && buf.getUnsignedShort(pos) == MAGIC_BROKER_ENTRY_METADATA) {
            if (pos + 6 > end) {
                throw malformed("truncated broker entry metadata");
            }
            long entryMetadataSize = buf.getUnsignedInt(pos + 2);
            if (entryMetadataSize > end - pos - 6) {
                throw malformed("broker entry metadata size " + entryMetadataSize + " out of bounds");
            }
            pos += 6 + (int) entryMetadataSize;
        }
        // magic (2), checksum (4), metadata size (4)
        if (pos + 10 > end || buf.getUnsignedShort(pos) != MAGIC_CRC32C) {
            throw malformed("message without metadata");
        }
        long metadataSize = buf.getUnsignedInt(pos + 6);
        pos += 10;
        if (metadataSize > end - pos) {
            throw malformed("metadata size " + metadataSize + " out of bounds");
        }
        int from = pos - frame.index();
        return messagesInBatch(copy(frame, from, from + (int) metadataSize), 0, (int) metadataSize);
    }

    /**
     * Messages a SEND carries by its own metadata: MessageMetadata's num_messages_in_batch (default
     * 1), read after the optional checksum. That count is what consumers see, whatever the command's
     * {@code num_messages} declares, so it is what a gate charges; but the client writes it too, so
     * it is believed only as far as the bytes can hold it: each message of a batch takes at least
     * {@link #SMALLEST_BATCHED_MESSAGE} bytes of the payload, or of the uncompressed size a compressed
     * batch declares. A send whose metadata cannot be read is one message: the broker stores it as
     * one entry, and no consumer can read more out of it.
     *
     * @throws MalformedFrameException if the metadata claims more messages than the bytes can hold
     */
    public static int messagesInSend(FrameView frame) {
        ByteBuf buf = frame.buffer();
        int pos = frame.index() + SIZES + commandSize(buf, frame.index());
        int end = frame.index() + frame.length();
        if (pos + 2 <= end && buf.getUnsignedShort(pos) == MAGIC_CRC32C) {
            pos += 6;
        }
        if (pos + 4 > end) {
            return 1;
        }
        long metadataSize = buf.getUnsignedInt(pos);
        pos += 4;
        if (metadataSize > end - pos) {
            return 1;
        }
        int metadataEnd = pos + (int) metadataSize;
        int from = pos - frame.index();
        byte[] metadata = copy(frame, from, from + (int) metadataSize);
        int at = 0;
        int last = (int) metadataSize;
        long count = 1;
        long compression = 0;
        long uncompressedSize = 0;
        try {
            while (at < last) {
                long tag = varint32(metadata, at, last);
                at = after(tag);
                int field = (int) tag;
                if (field == NUM_MESSAGES_IN_BATCH_TAG || field == COMPRESSION_TAG || field == UNCOMPRESSED_SIZE_TAG) {
                    long value = varint32(metadata, at, last);
                    at = after(value);
                    long read = value & 0xFFFFFFFFL;
                    if (field == NUM_MESSAGES_IN_BATCH_TAG) {
                        count = read;
                    } else if (field == COMPRESSION_TAG) {
                        compression = read;
                    } else {
                        uncompressedSize = read;
                    }
                } else {
                    at = skip(metadata, at, last, field & 7);
                }
            }
        } catch (MalformedFrameException unreadable) {
            return 1;
        }
        if (count <= 1) {
            return 1;
        }
        long bytes = compression == 0 ? end - metadataEnd : uncompressedSize;
        if (count > bytes / SMALLEST_BATCHED_MESSAGE) {
            throw malformedSend("a batch of " + bytes + " bytes" + (compression == 0 ? "" : " uncompressed")
                    + " claims " + count + " messages");
        }
        return (int) count;
    }

    /**
     * num_messages_in_batch of the MessageMetadata between {@code pos} and {@code end}: its last
     * occurrence, as protobuf reads a repeated scalar, 1 when absent, at most {@link Integer#MAX_VALUE}.
     */
    private static int messagesInBatch(byte[] buf, int pos, int end) {
        long count = 1;
        while (pos < end) {
            long tag = varint32(buf, pos, end);
            pos = after(tag);
            if ((int) tag == NUM_MESSAGES_IN_BATCH_TAG) {
                long value = varint32(buf, pos, end);
                count = value & 0xFFFFFFFFL;
                pos = after(value);
            } else {
                pos = skip(buf, pos, end, (int) tag & 7);
            }
        }
        return (int) Math.min(count, Integer.MAX_VALUE);
    }

    /**
     * Start and end of the body of the BaseCommand field {@code field} (a nested message) in a
     * frame's command copied from its first byte up to {@code end}, packed as {@code start << 32 | end}. The field must occur once: the broker
     * reads only the last occurrence, so a second one would make it act on other ids than those
     * Sluice accounted for.
     */
    private static long nestedBody(FrameCommand command, int field) {
        if (command.onlyNestedField == field) {
            return (long) command.onlyNestedStart << 32 | command.onlyNestedEnd;
        }
        return nestedBody(command.bytes, command.end, field);
    }

    private static long nestedBody(byte[] buf, int end, int field) {
        int wanted = tag(field, WIRE_LENGTH_DELIMITED);
        int bodyStart = -1;
        int bodyEnd = -1;
        int pos = SIZES;
        while (pos < end) {
            long tagAt = varint32(buf, pos, end);
            int tag = (int) tagAt;
            pos = after(tagAt);
            if (tag == wanted) {
                if (bodyStart >= 0) {
                    throw malformed("command repeats field " + field);
                }
                int next = varintEnd(buf, pos, end);
                long len = varint(buf, pos);
                pos = next;
                if (len < 0 || len > end - pos) {
                    throw malformed("nested command length " + len + " out of bounds");
                }
                bodyStart = pos;
                bodyEnd = pos + (int) len;
                pos = bodyEnd;
            } else {
                pos = skip(buf, pos, end, tag & 7);
            }
        }
        if (bodyStart < 0) {
            throw malformed("command lacks field " + field);
        }
        return (long) bodyStart << 32 | bodyEnd;
    }

    private static int commandSize(ByteBuf buf, int frameStart) {
        return (int) buf.getUnsignedInt(frameStart + Integer.BYTES);
    }

    /**
     * Where the command ends, counted from the frame's first byte; a command that claims more than
     * the frame holds is malformed.
     */
    private static int commandEnd(FrameView frame) {
        long end = SIZES + (frame.buffer().getUnsignedInt(frame.index() + Integer.BYTES));
        if (end > frame.length()) {
            throw malformed("command extends past the frame");
        }
        return (int) end;
    }

    /**
     * Bytes {@code [from, to)} of the frame, counted from its first byte, copied to the start of this
     * thread's scratch array, which the readers below walk: one call to the frame's buffer instead of
     * one a byte, which in the running proxy reaches several kinds of buffer (read buffers, buffers of
     * frames completed across reads, the leak detector's wrappers) through a call the JIT cannot
     * inline. Nothing is kept between calls; a region larger than {@link #MAX_SCRATCH} gets an array
     * of its own.
     */
    private static byte[] copy(FrameView frame, int from, int to) {
        int length = to - from;
        byte[] scratch = SCRATCH.get();
        if (scratch.length < length) {
            scratch = new byte[length];
            if (length <= MAX_SCRATCH) {
                SCRATCH.set(scratch);
            }
        }
        frame.buffer().getBytes(frame.index() + from, scratch, 0, length);
        return scratch;
    }

    /*
     * The helpers below walk a copy of part of the frame ({@link #copy}), from position {@code pos}
     * up to {@code end} in it.
     */

    /**
     * Reads the uint64 at {@code pos} into the field of {@code out} that {@code tag} names (a
     * producer or sequence id, a highest sequence id, is_chunk); returns the position after it.
     */
    private static int readField(byte[] buf, int pos, int end, int tag, SendFields out) {
        long value = smallVarint(buf, pos, end);
        long read;
        int next;
        if (value != NOT_SMALL) {
            read = value & 0xffffffffL;
            next = after(value);
        } else {
            next = varintEnd(buf, pos, end);
            read = varint(buf, pos);
        }
        if (tag == PRODUCER_ID_TAG) {
            out.producerId = read;
        } else if (tag == SEQUENCE_ID_TAG) {
            out.sequenceId = read;
        } else if (tag == IS_CHUNK_TAG) {
            out.chunk = read != 0;
        } else {
            out.highestSequenceId = read;
        }
        return next;
    }

    /**
     * The varint at {@code pos} cut to its low 32 bits (as a tag, a type or a count is read), and
     * the position after it: {@code after << 32 | low bits}. Small enough to be inlined where a
     * one-byte varint, the usual tag, is read.
     */
    private static long varint32(byte[] buf, int pos, int end) {
        if (pos < end) {
            byte b = buf[pos];
            if (b >= 0) {
                return (long) (pos + 1) << 32 | b;
            }
        }
        return longerVarint32(buf, pos, end);
    }

    private static long longerVarint32(byte[] buf, int pos, int end) {
        int value = 0;
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            if (pos >= end) {
                throw malformed("truncated varint");
            }
            byte b = buf[pos++];
            if (i < 5) {
                value |= (b & 0x7f) << 7 * i;
            }
            if (b >= 0) {
                return (long) pos << 32 | (value & 0xffffffffL);
            }
        }
        throw malformed("varint longer than 10 bytes");
    }

    /**
     * The varint at {@code pos} as {@code after << 32 | value} when it takes at most 5 bytes and its
     * value fits 32 bits, as ids and sequence numbers mostly do; {@link #NOT_SMALL} otherwise, for
     * {@link #varintEnd} and {@link #varint} to read.
     */
    private static long smallVarint(byte[] buf, int pos, int end) {
        if (pos < end) {
            byte b = buf[pos];
            if (b >= 0) {
                return (long) (pos + 1) << 32 | b;
            }
        }
        long value = 0;
        for (int i = 0; i < 5; i++) {
            if (pos >= end) {
                throw malformed("truncated varint");
            }
            byte b = buf[pos++];
            value |= (long) (b & 0x7f) << 7 * i;
            if (b >= 0) {
                return value > 0xffffffffL ? NOT_SMALL : (long) pos << 32 | value;
            }
        }
        return NOT_SMALL;
    }

    /** The position after a {@link #varint32} or {@link #smallVarint}. */
    private static int after(long packed) {
        return (int) (packed >>> 32);
    }

    /**
     * Where the varint at {@code pos} ends (the position after it), without decoding it; a varint
     * that runs past {@code end} or over 10 bytes is malformed.
     */
    private static int varintEnd(byte[] buf, int pos, int end) {
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            if (pos >= end) {
                throw malformed("truncated varint");
            }
            if (buf[pos++] >= 0) {
                return pos;
            }
        }
        throw malformed("varint longer than 10 bytes");
    }

    /** The value of the varint at {@code pos}, whose end {@link #varintEnd} has checked. */
    private static long varint(byte[] buf, int pos) {
        long value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = buf[pos++];
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    /** Skips the value of a field of wire type {@code wireType} at {@code pos}; returns where the next field starts. */
    private static int skip(byte[] buf, int pos, int end, int wireType) {
        return switch (wireType) {
            case WIRE_VARINT -> varintEnd(buf, pos, end);
            case WIRE_FIXED64 -> advance(pos, 8, end);
            case WIRE_LENGTH_DELIMITED -> {
                int next = varintEnd(buf, pos, end);
                long len = varint(buf, pos);
                if (len < 0 || len > end - next) {
                    throw malformed("field length " + len + " out of bounds");
                }
                yield next + (int) len;
            }
            case WIRE_FIXED32 -> advance(pos, 4, end);
            default -> throw malformed("unsupported wire type " + wireType);
        };
    }

    private static int advance(int pos, int n, int end) {
        if (pos + n > end) {
            throw malformed("field extends past the command");
        }
        return pos + n;
    }

    /** A protobuf field key: the field number and its wire type. */
    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    private static MalformedFrameException malformedSend(String message) {
        return new MalformedFrameException("bad_send_metadata", message);
    }

    private static MalformedFrameException malformed(String message) {
        return new MalformedFrameException("bad_command", message);
    }
}
