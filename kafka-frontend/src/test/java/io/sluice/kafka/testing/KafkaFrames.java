package io.sluice.kafka.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.RequestUtils;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

/**
 * Frames as Kafka's own code writes and reads them: headers and bodies serialized by kafka-clients'
 * message classes, with the size prefix a client or broker puts in front.
 */
public final class KafkaFrames {

    private KafkaFrames() {}

    /** A request frame for {@code body} as version {@code version}; the caller owns it. */
    public static ByteBuf request(ApiMessage body, short version, int correlationId, String clientId) {
        return request(body, version, correlationId, clientId, List.of());
    }

    /** A request frame whose header (if v2) carries {@code headerTags} as unknown tagged fields. */
    public static ByteBuf request(
            ApiMessage body, short version, int correlationId, String clientId, List<RawTaggedField> headerTags) {
        ApiKeys key = ApiKeys.forId(body.apiKey());
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(key.id)
                .setRequestApiVersion(version)
                .setCorrelationId(correlationId)
                .setClientId(clientId);
        header.unknownTaggedFields().addAll(headerTags);
        return sizePrefixed(RequestUtils.serialize(header, key.requestHeaderVersion(version), body, version));
    }

    /** A response frame for {@code body} as version {@code version} of its API; the caller owns it. */
    public static ByteBuf response(ApiMessage body, short version, int correlationId) {
        return response(body, version, correlationId, List.of());
    }

    /** A response frame whose header (if v1) carries {@code headerTags} as unknown tagged fields. */
    public static ByteBuf response(ApiMessage body, short version, int correlationId, List<RawTaggedField> headerTags) {
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        header.unknownTaggedFields().addAll(headerTags);
        short headerVersion = ApiKeys.forId(body.apiKey()).responseHeaderVersion(version);
        return sizePrefixed(RequestUtils.serialize(header, headerVersion, body, version));
    }

    /** Reads a response frame the way a Java client does, checking its correlation id; does not release it. */
    public static AbstractResponse asClientReads(ByteBuf frame, ApiKeys key, short version, int correlationId) {
        ByteBuffer bytes = ByteBuffer.wrap(frameBytes(frame));
        int size = bytes.getInt();
        if (size != bytes.remaining()) {
            throw new AssertionError("size prefix " + size + " but " + bytes.remaining() + " bytes follow");
        }
        return AbstractResponse.parseResponse(bytes, new RequestHeader(key, version, "reader", correlationId));
    }

    /** Reads a response body into {@code message} as kafka-clients does; does not release the frame. */
    public static <M extends ApiMessage> M body(ByteBuf frame, ApiKeys key, short version, M message) {
        ByteBuffer bytes = ByteBuffer.wrap(frameBytes(frame));
        bytes.position(4);
        org.apache.kafka.common.requests.ResponseHeader.parse(bytes, key.responseHeaderVersion(version));
        message.read(new ByteBufferAccessor(bytes), version);
        return message;
    }

    /** {@code frame}'s readable bytes lent as a decoder lends a frame; {@code frame} stays the caller's. */
    public static FrameView view(ByteBuf frame) {
        return new FrameView().lend(frame, frame.readerIndex(), frame.readableBytes());
    }

    /**
     * What the client gets for the broker's response {@code frame} to {@code apiKey}
     * v{@code version} after {@code treatment}, handed on as the connection hands it: {@code frame}
     * itself, or the frame put in its place with {@code frame} released. Takes ownership of
     * {@code frame}, and releases everything when the treatment fails.
     */
    public static ByteBuf treated(ByteBuf frame, short apiKey, short version, Consumer<ResponseFrame> treatment) {
        ResponseFrame response = new ResponseFrame().lend(view(frame), apiKey, version);
        try {
            treatment.accept(response);
        } catch (RuntimeException e) {
            response.release();
            frame.release();
            throw e;
        }
        if (!response.isReplaced()) {
            return frame;
        }
        frame.release();
        return response.takeReplacement();
    }

    /** The readable bytes of {@code frame}, which keeps its indexes. */
    public static byte[] frameBytes(ByteBuf frame) {
        byte[] bytes = new byte[frame.readableBytes()];
        frame.getBytes(frame.readerIndex(), bytes);
        return bytes;
    }

    private static ByteBuf sizePrefixed(ByteBuffer message) {
        ByteBuf frame = Unpooled.buffer(4 + message.remaining());
        frame.writeInt(message.remaining());
        frame.writeBytes(message);
        return frame;
    }
}
