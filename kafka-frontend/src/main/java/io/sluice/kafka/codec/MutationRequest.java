package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.scopes.KafkaNames;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * One Kafka topic mutation request, CreateTopics, CreatePartitions or DeleteTopics, read whole
 * (docs/KAFKA.md, "Topic mutations"): its topics in order, the partitions each is charged as Kafka's
 * controller mutation quota counts them (KIP-599), the request cut to the topics Sluice admits, and
 * Sluice's answer for those it refuses, alone or merged into the broker's response.
 *
 * <p>What a topic is charged, bounded whatever the client wrote: CreateTopics, its assignments'
 * size if it has any, else its {@code numPartitions}, the broker's default ({@code -1}) counting as
 * 1; CreatePartitions, its assignments' size if it has any, else 1 (Sluice does not know how many
 * partitions the topic has, so not how many {@code count} adds); DeleteTopics, 1 (likewise). At most
 * {@link #MAX_PARTITIONS} a topic. A topic the broker refuses before it counts anything is charged
 * nothing: an invalid name, a name (or id) the request repeats, a count below 1 but the default.
 *
 * <p>Lives for one request and its response, on the connection's event loop; allocates, as these
 * requests are rare.
 */
public final class MutationRequest {

    /** The error of a topic Sluice refuses: the one Kafka's own controller mutation quota answers. */
    public static final Errors REFUSAL = Errors.THROTTLING_QUOTA_EXCEEDED;

    /** The most partitions one topic is charged: more than any cluster holds in one topic. */
    public static final int MAX_PARTITIONS = 1_000_000;

    private static final short CREATE_TOPICS = ApiKeys.CREATE_TOPICS.id;
    private static final short CREATE_PARTITIONS = ApiKeys.CREATE_PARTITIONS.id;
    private static final short DELETE_TOPICS = ApiKeys.DELETE_TOPICS.id;

    private final short apiKey;
    private final short version;
    private final ApiMessage message;
    /** Each topic's name, or null for a DeleteTopics topic named by id alone. */
    private final String[] names;
    /** Each topic's id, for DeleteTopics from v6; else null. */
    private final Uuid[] ids;

    private final int[] partitions;

    private MutationRequest(short apiKey, short version, ApiMessage message, int topics) {
        this.apiKey = apiKey;
        this.version = version;
        this.message = message;
        this.names = new String[topics];
        this.ids = apiKey == DELETE_TOPICS && version >= 6 ? new Uuid[topics] : null;
        this.partitions = new int[topics];
    }

    /** Whether {@code apiKey} is CreateTopics, CreatePartitions or DeleteTopics. */
    public static boolean isMutation(short apiKey) {
        return apiKey == CREATE_TOPICS || apiKey == CREATE_PARTITIONS || apiKey == DELETE_TOPICS;
    }

    /**
     * Reads the topic mutation request {@code header} was read from, whole, from the lent
     * {@code frame}, which is left as it was. An unreadable request raises a
     * {@code MalformedFrameException}, before anything is charged.
     */
    public static MutationRequest read(FrameView frame, RequestHeader header) {
        short key = header.apiKey();
        short version = header.apiVersion();
        int body = header.bodyIndex();
        if (key == CREATE_TOPICS) {
            CreateTopicsRequestData request =
                    MessageFrames.read(new CreateTopicsRequestData(), frame, body, version, "bad_create_topics");
            MutationRequest read =
                    new MutationRequest(key, version, request, request.topics().size());
            int i = 0;
            for (CreateTopicsRequestData.CreatableTopic topic : request.topics()) {
                read.names[i] = topic.name();
                read.partitions[i++] = topic.assignments().isEmpty()
                        ? created(topic.numPartitions())
                        : bounded(topic.assignments().size());
            }
            return read.withoutRepeatsOrInvalidNames();
        }
        if (key == CREATE_PARTITIONS) {
            CreatePartitionsRequestData request = MessageFrames.read(
                    new CreatePartitionsRequestData(), frame, body, version, "bad_create_partitions");
            MutationRequest read =
                    new MutationRequest(key, version, request, request.topics().size());
            int i = 0;
            for (CreatePartitionsRequestData.CreatePartitionsTopic topic : request.topics()) {
                read.names[i] = topic.name();
                boolean assigned =
                        topic.assignments() != null && !topic.assignments().isEmpty();
                read.partitions[i++] = topic.count() < 1
                        ? 0
                        : assigned ? bounded(topic.assignments().size()) : 1;
            }
            return read.withoutRepeatsOrInvalidNames();
        }
        if (key == DELETE_TOPICS) {
            DeleteTopicsRequestData request =
                    MessageFrames.read(new DeleteTopicsRequestData(), frame, body, version, "bad_delete_topics");
            if (version >= 6) {
                MutationRequest read = new MutationRequest(
                        key, version, request, request.topics().size());
                int i = 0;
                for (DeleteTopicsRequestData.DeleteTopicState topic : request.topics()) {
                    read.names[i] = topic.name();
                    read.ids[i] = topic.topicId();
                    read.partitions[i++] = topic.name() != null || !Uuid.ZERO_UUID.equals(topic.topicId()) ? 1 : 0;
                }
                return read.withoutRepeatsOrInvalidNames();
            }
            MutationRequest read = new MutationRequest(
                    key, version, request, request.topicNames().size());
            for (int i = 0; i < read.names.length; i++) {
                read.names[i] = request.topicNames().get(i);
                read.partitions[i] = 1;
            }
            return read.withoutRepeatsOrInvalidNames();
        }
        throw new IllegalArgumentException("API key " + key + " is no topic mutation");
    }

    /** CreateTopics' {@code numPartitions}: the broker's default (-1) as 1, below 1 (refused) as 0. */
    private static int created(int numPartitions) {
        return numPartitions == -1 ? 1 : numPartitions < 1 ? 0 : bounded(numPartitions);
    }

    private static int bounded(int partitions) {
        return Math.min(partitions, MAX_PARTITIONS);
    }

    /** Charges nothing for a topic whose name is invalid, or whose name or id the request repeats. */
    private MutationRequest withoutRepeatsOrInvalidNames() {
        Map<Object, Integer> seen = new HashMap<>();
        for (int i = 0; i < names.length; i++) {
            Integer before = seen.putIfAbsent(key(i), i);
            if (before != null) {
                partitions[before] = 0;
                partitions[i] = 0;
            }
            if (names[i] != null && !KafkaNames.isTopic(names[i])) {
                partitions[i] = 0;
            }
        }
        return this;
    }

    /** A topic's name, or for one named by id alone its id. */
    private Object key(int topic) {
        return names[topic] != null || ids == null ? names[topic] : ids[topic];
    }

    /**
     * Whether the request's version knows {@link #REFUSAL}, so that Sluice may refuse its topics
     * (KIP-599's strict quota): CreateTopics from v6, CreatePartitions from v3, DeleteTopics from v5.
     * Older versions are charged and throttled, never refused, as Kafka's permissive quota does.
     */
    public boolean isStrict() {
        return version >= (apiKey == CREATE_TOPICS ? 6 : apiKey == CREATE_PARTITIONS ? 3 : 5);
    }

    /** How many topics the request names. */
    public int topics() {
        return names.length;
    }

    /** The partitions topic {@code topic} (its place in the request) is charged; 0 for nothing. */
    public int partitions(int topic) {
        return partitions[topic];
    }

    /**
     * The request with the topics {@code refused} marks left out, its header as it came in
     * {@code frame}. The caller owns the new frame; {@code frame} is left as it was. Call once.
     */
    public ByteBuf cut(ByteBufAllocator alloc, FrameView frame, RequestHeader header, boolean[] refused) {
        if (message instanceof CreateTopicsRequestData request) {
            removeRefused(request.topics().iterator(), refused);
        } else if (message instanceof CreatePartitionsRequestData request) {
            removeRefused(request.topics().iterator(), refused);
        } else if (version >= 6) {
            removeRefused(((DeleteTopicsRequestData) message).topics().iterator(), refused);
        } else {
            removeRefused(((DeleteTopicsRequestData) message).topicNames().iterator(), refused);
        }
        return MessageFrames.withBody(alloc, frame, header.bodyIndex(), message, version, "bad_topic_mutation");
    }

    private static void removeRefused(Iterator<?> topics, boolean[] refused) {
        for (int i = 0; topics.hasNext(); i++) {
            topics.next();
            if (refused[i]) {
                topics.remove();
            }
        }
    }

    /**
     * Sluice's answer to a request all of whose topics it refuses: each with {@link #REFUSAL} and
     * {@code errorMessage}, the throttle time {@code throttleMillis}. The caller owns it.
     */
    public ByteBuf answer(ByteBufAllocator alloc, int correlationId, String errorMessage, int throttleMillis) {
        boolean[] all = new boolean[names.length];
        Arrays.fill(all, true);
        ApiMessage response = emptyResponse();
        addRefused(response, all, errorMessage, throttleMillis);
        return MessageFrames.response(alloc, correlationId, response, version);
    }

    /**
     * Reads the broker's response to this request, in its frame as it is now. A response that cannot
     * be read raises a {@code MalformedFrameException}.
     */
    public ApiMessage readResponse(ResponseFrame response) {
        return MessageFrames.read(
                emptyResponse(), response.frame(), response.bodyIndex(), version, "bad_response_body");
    }

    /**
     * Which of the request's topics the broker's {@code response} answers with an error: nothing of
     * them was created or deleted, so what they were charged is given back.
     */
    public boolean[] failedIn(ApiMessage response) {
        Map<Object, Short> errors = new HashMap<>();
        if (response instanceof CreateTopicsResponseData created) {
            created.topics().forEach(topic -> errors.put(topic.name(), topic.errorCode()));
        } else if (response instanceof CreatePartitionsResponseData added) {
            added.results().forEach(topic -> errors.put(topic.name(), topic.errorCode()));
        } else {
            for (DeleteTopicsResponseData.DeletableTopicResult topic :
                    ((DeleteTopicsResponseData) response).responses()) {
                if (topic.name() != null) {
                    errors.put(topic.name(), topic.errorCode());
                }
                if (!Uuid.ZERO_UUID.equals(topic.topicId())) {
                    errors.put(topic.topicId(), topic.errorCode());
                }
            }
        }
        boolean[] failed = new boolean[names.length];
        for (int i = 0; i < failed.length; i++) {
            Short error = errors.get(key(i));
            failed[i] = error != null && error != Errors.NONE.code();
        }
        return failed;
    }

    /**
     * Adds to {@code response} (this request's, the broker's or an empty one) a result for each topic
     * {@code refused} marks, with {@link #REFUSAL} and {@code errorMessage}, and raises its throttle
     * time to {@code throttleMillis}.
     */
    public void addRefused(ApiMessage response, boolean[] refused, String errorMessage, int throttleMillis) {
        for (int i = 0; i < names.length; i++) {
            if (refused[i]) {
                addRefused(response, i, errorMessage);
            }
        }
        if (response instanceof CreateTopicsResponseData created) {
            created.setThrottleTimeMs(Math.max(created.throttleTimeMs(), throttleMillis));
        } else if (response instanceof CreatePartitionsResponseData added) {
            added.setThrottleTimeMs(Math.max(added.throttleTimeMs(), throttleMillis));
        } else {
            DeleteTopicsResponseData deleted = (DeleteTopicsResponseData) response;
            deleted.setThrottleTimeMs(Math.max(deleted.throttleTimeMs(), throttleMillis));
        }
    }

    private void addRefused(ApiMessage response, int topic, String errorMessage) {
        if (response instanceof CreateTopicsResponseData created) {
            created.topics()
                    .add(new CreateTopicsResponseData.CreatableTopicResult()
                            .setName(names[topic])
                            .setErrorCode(REFUSAL.code())
                            .setErrorMessage(errorMessage));
        } else if (response instanceof CreatePartitionsResponseData added) {
            added.results()
                    .add(new CreatePartitionsResponseData.CreatePartitionsTopicResult()
                            .setName(names[topic])
                            .setErrorCode(REFUSAL.code())
                            .setErrorMessage(errorMessage));
        } else {
            ((DeleteTopicsResponseData) response)
                    .responses()
                    .add(new DeleteTopicsResponseData.DeletableTopicResult()
                            .setName(names[topic])
                            .setTopicId(ids == null ? Uuid.ZERO_UUID : ids[topic])
                            .setErrorCode(REFUSAL.code())
                            .setErrorMessage(errorMessage));
        }
    }

    /** A response of this request's API with no topic in it. */
    private ApiMessage emptyResponse() {
        if (apiKey == CREATE_TOPICS) {
            return new CreateTopicsResponseData();
        }
        return apiKey == CREATE_PARTITIONS ? new CreatePartitionsResponseData() : new DeleteTopicsResponseData();
    }
}
