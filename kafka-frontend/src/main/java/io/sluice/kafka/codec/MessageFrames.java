package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

import java.nio.ByteBuffer;

/**
 * Moves message bodies between frames and kafka-clients' generated message classes, for the few
 * frames Sluice must change. Those classes are no stable API: only the codec's message-specific
 * classes use them, through this.
 */
public final class MessageFrames {

    private MessageFrames() {}

    /**
     * Reads the body of {@code frame}, from {@code bodyIndex} (an index into its buffer) to its end,
     * into {@code message} as version {@code version}. Byte arrays in the message (records) may share
     * the frame's memory: use the message only while the frame is there (a lent frame: during the call). Anything unreadable raises a
     * {@link MalformedFrameException} with {@code reason}.
     */
    public static <M extends ApiMessage> M read(
            M message, FrameView frame, int bodyIndex, short version, String reason) {
        ByteBuffer body = frame.buffer().nioBuffer(bodyIndex, frame.index() + frame.length() - bodyIndex);
        try {
            message.read(new ByteBufferAccessor(body), version);
        } catch (RuntimeException e) {
            // kafka-clients signals bad input with assorted unchecked exceptions (buffer underflow,
            // negative sizes, invalid UTF-8 lengths); all mean the same here.
            throw new MalformedFrameException(
                    reason, "unreadable " + message.getClass().getSimpleName() + " v" + version + ": " + e, e);
        }
        return message;
    }

    /**
     * A new frame with {@code frame}'s header (the bytes between the size prefix and
     * {@code bodyIndex}, copied as they are) and {@code message}, read from {@code frame}, written as
     * version {@code version} for its body. The caller owns the new frame; {@code frame} is left as
     * it was. A message that kafka-clients read but will not write back (a tag repeated, say) raises
     * a {@link MalformedFrameException} with {@code reason}.
     */
    public static ByteBuf withBody(
            ByteBufAllocator alloc, FrameView frame, int bodyIndex, ApiMessage message, short version, String reason) {
        int headerStart = frame.index() + 4;
        int headerSize = bodyIndex - headerStart;
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuf out = null;
        try {
            int bodySize = message.size(cache, version);
            out = alloc.buffer(4 + headerSize + bodySize);
            out.writeInt(headerSize + bodySize);
            out.writeBytes(frame.buffer(), headerStart, headerSize);
            writeBody(out, message, version, cache, bodySize);
            return out;
        } catch (RuntimeException e) {
            if (out != null) {
                out.release();
            }
            throw new MalformedFrameException(
                    reason, "cannot write back " + message.getClass().getSimpleName() + " v" + version + ": " + e, e);
        }
    }

    /**
     * A new response frame with a version 0 header (the correlation id alone) and {@code message}
     * written as version {@code version}. The caller owns it.
     */
    public static ByteBuf responseWithHeaderV0(
            ByteBufAllocator alloc, int correlationId, ApiMessage message, short version) {
        return response(alloc, correlationId, (short) 0, message, version);
    }

    /**
     * A new response frame to a request of {@code message}'s API, version {@code version}: the
     * header its version calls for (in v1 with no tagged fields), then {@code message}. The caller owns it.
     */
    public static ByteBuf response(ByteBufAllocator alloc, int correlationId, ApiMessage message, short version) {
        return response(
                alloc, correlationId, ApiKeys.forId(message.apiKey()).responseHeaderVersion(version), message, version);
    }

    private static ByteBuf response(
            ByteBufAllocator alloc, int correlationId, short headerVersion, ApiMessage message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int bodySize = message.size(cache, version);
        int headerSize = headerVersion >= 1 ? 5 : 4;
        ByteBuf out = alloc.buffer(4 + headerSize + bodySize);
        try {
            out.writeInt(headerSize + bodySize);
            out.writeInt(correlationId);
            if (headerVersion >= 1) {
                out.writeByte(0); // no tagged fields
            }
            writeBody(out, message, version, cache, bodySize);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private static void writeBody(
            ByteBuf out, ApiMessage message, short version, ObjectSerializationCache cache, int bodySize) {
        message.write(new ByteBufferAccessor(out.nioBuffer(out.writerIndex(), bodySize)), cache, version);
        out.writerIndex(out.writerIndex() + bodySize);
    }
}
