package io.sluice.pulsar.codec;

import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandError;
import io.sluice.pulsar.codec.proto.CommandFlow;
import io.sluice.pulsar.codec.proto.CommandGetSchemaResponse;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse;
import io.sluice.pulsar.codec.proto.CommandPartitionedTopicMetadataResponse;
import io.sluice.pulsar.codec.proto.CommandSendError;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.codec.proto.ServerError;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Encodes the few commands Sluice writes itself (errors, rewritten lookups, throttle notices) as
 * simple frames: {@code [totalSize][commandSize][BaseCommand]}. Frames that pass through the proxy
 * are never re-encoded.
 */
public final class FrameWriter {

    private FrameWriter() {}

    /** A new buffer from {@code alloc} holding {@code command} as a frame; the caller owns it. */
    public static ByteBuf encode(ByteBufAllocator alloc, BaseCommand command) {
        int size = command.getSerializedSize();
        ByteBuf buf = alloc.buffer(8 + size);
        try {
            buf.writeInt(4 + size);
            buf.writeInt(size);
            CodedOutputStream out = CodedOutputStream.newInstance(buf.nioBuffer(buf.writerIndex(), size));
            command.writeTo(out);
            out.flush();
            buf.writerIndex(buf.writerIndex() + size);
            return buf;
        } catch (IOException e) {
            buf.release();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /** CommandSendError for one message of one producer. */
    public static ByteBuf sendError(
            ByteBufAllocator alloc, long producerId, long sequenceId, ServerError error, String message) {
        return encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.SEND_ERROR)
                        .setSendError(CommandSendError.newBuilder()
                                .setProducerId(producerId)
                                .setSequenceId(sequenceId)
                                .setError(error)
                                .setMessage(message))
                        .build());
    }

    /** CommandFlow granting the broker {@code permits} more messages for a consumer. */
    public static ByteBuf flow(ByteBufAllocator alloc, long consumerId, int permits) {
        return encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.FLOW)
                        .setFlow(CommandFlow.newBuilder()
                                .setConsumerId(consumerId)
                                .setMessagePermits(permits))
                        .build());
    }

    /** A failed LookupTopicResponse answering the request {@code requestId}. */
    public static ByteBuf lookupFailed(ByteBufAllocator alloc, long requestId, ServerError error, String message) {
        return encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.LOOKUP_RESPONSE)
                        .setLookupTopicResponse(CommandLookupTopicResponse.newBuilder()
                                .setRequestId(requestId)
                                .setResponse(CommandLookupTopicResponse.LookupType.Failed)
                                .setError(error)
                                .setMessage(message))
                        .build());
    }

    /** A failed PartitionedTopicMetadataResponse answering the request {@code requestId}. */
    public static ByteBuf partitionedMetadataFailed(
            ByteBufAllocator alloc, long requestId, ServerError error, String message) {
        return encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.PARTITIONED_METADATA_RESPONSE)
                        .setPartitionMetadataResponse(CommandPartitionedTopicMetadataResponse.newBuilder()
                                .setRequestId(requestId)
                                .setResponse(CommandPartitionedTopicMetadataResponse.LookupType.Failed)
                                .setError(error)
                                .setMessage(message))
                        .build());
    }

    /** A GetSchemaResponse with an error, answering the request {@code requestId}. */
    public static ByteBuf schemaFailed(ByteBufAllocator alloc, long requestId, ServerError error, String message) {
        return encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.GET_SCHEMA_RESPONSE)
                        .setGetSchemaResponse(CommandGetSchemaResponse.newBuilder()
                                .setRequestId(requestId)
                                .setErrorCode(error)
                                .setErrorMessage(message))
                        .build());
    }

    /** CommandError answering the request {@code requestId}. */
    public static ByteBuf error(ByteBufAllocator alloc, long requestId, ServerError error, String message) {
        return encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.ERROR)
                        .setError(CommandError.newBuilder()
                                .setRequestId(requestId)
                                .setError(error)
                                .setMessage(message))
                        .build());
    }

    /**
     * CommandThrottleProducer (Sluice's extension, BaseCommand type 200) asking a client that
     * advertised {@code supports_throttle_producer_commands} to pause a producer.
     */
    public static ByteBuf throttleProducer(
            ByteBufAllocator alloc, long requestId, long producerId, ThrottlingReason reason, long pauseForMillis) {
        return encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.THROTTLE_PRODUCER)
                        .setThrottleProducer(CommandThrottleProducer.newBuilder()
                                .setRequestId(requestId)
                                .setProducerId(producerId)
                                .setThrottlingReason(reason)
                                .setPauseForMillis(pauseForMillis))
                        .build());
    }
}
