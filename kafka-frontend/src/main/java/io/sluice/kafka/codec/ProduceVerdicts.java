package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.message.ProduceResponseData.TopicProduceResponse;
import org.apache.kafka.common.message.ProduceResponseData.TopicProduceResponseCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What became of each partition of one Produce request that Sluice did not forward whole, in the
 * request's order: forwarded (the broker answers it) or answered by Sluice with an error. From it
 * comes the response the client gets, which names exactly the partitions of its request, in
 * their order: the Java client (from 4.1) fails on a partition it did not send, and would wait for
 * one left out. Built only for requests Sluice cuts or answers itself.
 */
public final class ProduceVerdicts {

    /** Where a partition response has no offset: the broker's own value for a failed partition. */
    private static final long NO_OFFSET = -1;
    /** The first version whose partition responses carry an error message. */
    private static final short ERROR_MESSAGES = 8;
    /** The first version that names topics by id. */
    private static final short TOPIC_IDS = 13;

    private final short version;
    private final List<Topic> topics = new ArrayList<>();
    private int forwarded;
    private int answered;

    /** @param version the request's (and so the response's) version */
    public ProduceVerdicts(short version) {
        this.version = version;
    }

    /** The next partitions belong to topic {@code name} (up to v12) or {@code id} (from v13). */
    public ProduceVerdicts topic(String name, Uuid id) {
        topics.add(version >= TOPIC_IDS ? new Topic("", id) : new Topic(name, Uuid.ZERO_UUID));
        return this;
    }

    /** Partition {@code index} of the current topic went to the broker, which answers it. */
    public ProduceVerdicts forwarded(int index) {
        current().partitions.add(new Verdict(index, null, null));
        forwarded++;
        return this;
    }

    /** Partition {@code index} of the current topic is answered by Sluice with {@code error} and {@code message}. */
    public ProduceVerdicts answered(int index, Errors error, String message) {
        current().partitions.add(new Verdict(index, error, message));
        answered++;
        return this;
    }

    public boolean anyForwarded() {
        return forwarded > 0;
    }

    public int answeredCount() {
        return answered;
    }

    /**
     * Sluice's whole answer to a request none of whose partitions was forwarded: every partition
     * with its error. The caller owns the frame.
     */
    public ByteBuf answer(ByteBufAllocator alloc, int correlationId) {
        if (forwarded > 0) {
            throw new IllegalStateException(forwarded + " partitions await the broker's answer");
        }
        return response(alloc, correlationId, merged(new ProduceResponseData()));
    }

    /**
     * The broker's response {@code frame} (body at {@code bodyIndex}) to the cut request, with
     * Sluice's answers put in their places, its header as it came. The caller owns the new frame;
     * {@code frame} stays its owner's. A response that cannot be read raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}).
     */
    public ByteBuf merge(ByteBufAllocator alloc, FrameView frame, int bodyIndex) {
        ProduceResponseData broker =
                MessageFrames.read(new ProduceResponseData(), frame, bodyIndex, version, "bad_response_body");
        return MessageFrames.withBody(alloc, frame, bodyIndex, merged(broker), version, "bad_response_body");
    }

    /** {@code broker}'s answers and Sluice's, in the request's order; anything else the broker said is kept. */
    private ProduceResponseData merged(ProduceResponseData broker) {
        TopicProduceResponseCollection responses = new TopicProduceResponseCollection(topics.size());
        for (Topic topic : topics) {
            TopicProduceResponse brokerTopic = broker.responses().find(topic.name, topic.id);
            TopicProduceResponse out =
                    new TopicProduceResponse().setName(topic.name).setTopicId(topic.id);
            if (brokerTopic != null) {
                out.unknownTaggedFields().addAll(brokerTopic.unknownTaggedFields());
            }
            for (Verdict verdict : topic.partitions) {
                PartitionProduceResponse partition =
                        verdict.error == null ? take(brokerTopic, verdict.index) : sluices(verdict);
                if (partition != null) {
                    out.partitionResponses().add(partition);
                }
            }
            if (brokerTopic != null) {
                // Partitions the request did not have: not expected, but the broker's to say.
                out.partitionResponses().addAll(brokerTopic.partitionResponses());
                broker.responses().remove(brokerTopic);
            }
            responses.add(out);
        }
        for (Iterator<TopicProduceResponse> left = broker.responses().iterator(); left.hasNext(); ) {
            TopicProduceResponse topic = left.next();
            left.remove();
            responses.add(topic);
        }
        return broker.setResponses(responses);
    }

    private PartitionProduceResponse sluices(Verdict verdict) {
        PartitionProduceResponse partition = new PartitionProduceResponse()
                .setIndex(verdict.index)
                .setErrorCode(verdict.error.code())
                .setBaseOffset(NO_OFFSET)
                .setLogAppendTimeMs(NO_OFFSET)
                .setLogStartOffset(NO_OFFSET);
        if (version >= ERROR_MESSAGES) {
            partition.setErrorMessage(verdict.message);
        }
        return partition;
    }

    /** Removes and returns the broker's answer for partition {@code index}, if it gave one. */
    private static PartitionProduceResponse take(TopicProduceResponse brokerTopic, int index) {
        if (brokerTopic == null) {
            return null;
        }
        for (Iterator<PartitionProduceResponse> it =
                        brokerTopic.partitionResponses().iterator();
                it.hasNext(); ) {
            PartitionProduceResponse partition = it.next();
            if (partition.index() == index) {
                it.remove();
                return partition;
            }
        }
        return null;
    }

    private ByteBuf response(ByteBufAllocator alloc, int correlationId, ProduceResponseData data) {
        boolean headerTags = ApiKeys.PRODUCE.responseHeaderVersion(version) >= 1;
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int bodySize = data.size(cache, version);
        int headerSize = headerTags ? 5 : 4;
        ByteBuf out = alloc.buffer(4 + headerSize + bodySize);
        try {
            out.writeInt(headerSize + bodySize);
            out.writeInt(correlationId);
            if (headerTags) {
                out.writeByte(0);
            }
            data.write(new ByteBufferAccessor(out.nioBuffer(out.writerIndex(), bodySize)), cache, version);
            out.writerIndex(out.writerIndex() + bodySize);
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private Topic current() {
        if (topics.isEmpty()) {
            throw new IllegalStateException("no topic yet");
        }
        return topics.get(topics.size() - 1);
    }

    private record Topic(String name, Uuid id, List<Verdict> partitions) {
        Topic(String name, Uuid id) {
            this(name, id, new ArrayList<>());
        }
    }

    private record Verdict(int index, Errors error, String message) {}
}
