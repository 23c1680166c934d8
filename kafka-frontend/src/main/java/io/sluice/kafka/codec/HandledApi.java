package io.sluice.kafka.codec;

import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The APIs whose messages Sluice reads or rewrites, or whose versions it must constrain, with the
 * versions of each it handles. Sluice advertises no other versions of these to clients (see
 * {@link ApiVersionsResponseRewriter}) and closes a connection that uses one anyway. Every other API
 * passes through in whatever version client and broker agree on.
 *
 * <p>The ranges are Sluice's own, not kafka-clients': raising one means reading the new version's
 * schema and testing it (HandledApiTest checks that the pinned kafka-clients can parse each).
 */
public enum HandledApi {

    /** Read for acks (and later per-partition sizes); responses carry node endpoints from v10. */
    PRODUCE(ApiKeys.PRODUCE, 3, 13),
    /** Responses carry node endpoints from v16; topics are named by id from v13. */
    FETCH(ApiKeys.FETCH, 4, 18),
    /** Responses list the brokers and map topic ids to names. */
    METADATA(ApiKeys.METADATA, 0, 13),
    /** Responses name the coordinator: one node to v3, a list from v4; refused as InitProducerId and JoinGroup are. */
    FIND_COORDINATOR(ApiKeys.FIND_COORDINATOR, 0, 6),
    /** Refused with Sluice's answer while admission control refuses new producers. */
    INIT_PRODUCER_ID(ApiKeys.INIT_PRODUCER_ID, 0, 5),
    /** Read for its group, whose joins a limit may hold; refused with Sluice's answer while admission control refuses new consumers. */
    JOIN_GROUP(ApiKeys.JOIN_GROUP, 0, 9),
    /** Read for its group, whose commits a limit may hold or refuse. */
    OFFSET_COMMIT(ApiKeys.OFFSET_COMMIT, 2, 10),
    /** Responses list the brokers. */
    DESCRIBE_CLUSTER(ApiKeys.DESCRIBE_CLUSTER, 0, 2),
    /** Responses are the version negotiation Sluice rewrites. */
    API_VERSIONS(ApiKeys.API_VERSIONS, 0, 4),
    /** v0 switches the connection to raw SASL tokens without Kafka headers, read as they pass. */
    SASL_HANDSHAKE(ApiKeys.SASL_HANDSHAKE, 0, 1),
    /** Responses carry node endpoints. */
    SHARE_FETCH(ApiKeys.SHARE_FETCH, 1, 2),
    /** Responses carry node endpoints. */
    SHARE_ACKNOWLEDGE(ApiKeys.SHARE_ACKNOWLEDGE, 1, 2),
    /**
     * Responses map the new topics' ids to their names from v7; read for the partitions it creates,
     * which a rate of topic mutations may refuse from v6 (KIP-599).
     */
    CREATE_TOPICS(ApiKeys.CREATE_TOPICS, 2, 7),
    /** Read for the partitions it adds, which a rate of topic mutations may refuse from v3. */
    CREATE_PARTITIONS(ApiKeys.CREATE_PARTITIONS, 0, 3),
    /** Read for the topics it deletes, which a rate of topic mutations may refuse from v5. */
    DELETE_TOPICS(ApiKeys.DELETE_TOPICS, 1, 6),
    /** Responses map topic ids to names. */
    DESCRIBE_TOPIC_PARTITIONS(ApiKeys.DESCRIBE_TOPIC_PARTITIONS, 0, 0);

    private static final HandledApi[] BY_KEY = new HandledApi[128];

    static {
        for (HandledApi api : values()) {
            BY_KEY[api.key.id] = api;
        }
    }

    private final ApiKeys key;
    private final short minVersion;
    private final short maxVersion;

    HandledApi(ApiKeys key, int minVersion, int maxVersion) {
        this.key = key;
        this.minVersion = (short) minVersion;
        this.maxVersion = (short) maxVersion;
    }

    /** The handled API with this key, or null when Sluice passes that API through untouched. */
    public static HandledApi of(short apiKey) {
        return apiKey >= 0 && apiKey < BY_KEY.length ? BY_KEY[apiKey] : null;
    }

    public ApiKeys key() {
        return key;
    }

    public short minVersion() {
        return minVersion;
    }

    public short maxVersion() {
        return maxVersion;
    }

    public boolean supports(short version) {
        return version >= minVersion && version <= maxVersion;
    }
}
