package io.sluice.kafka.scopes;

import io.sluice.limits.IdentityName;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.NameParameter;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.ProtocolScopes;
import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.status.IdentityField;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kafka's scopes, declared once: records of a topic produced (or fetched) by a client must fit the
 * topic's limit, the limit of the longest prefix of the topic's name that has one, the client id's
 * and the principal's (the identity the broker accepted, which no client can rename); a consumer
 * group's joins and commits must fit its group's limit. The kinds sit in the {@code kafka} section of the limits document; the admin routes, the
 * OpenAPI document, the CLI's scopes and the limits metrics follow from these declarations
 * ({@link #DECLARED}).
 */
public final class KafkaScopes {

    /** The protocol of Kafka's meters, throttles and metrics. */
    public static final String PROTOCOL = "kafka";

    private static final String TOPIC_NAME_PATTERN = "^[a-zA-Z0-9._-]{1,249}$";

    /** A topic, all its partitions together. */
    public static final ScopeKind TOPIC = ScopeKind.builder(PROTOCOL, "topic")
            .field("kafka", "topics")
            .cliName("kafka-topic")
            .named(
                    NameTemplate.of(
                            "{topic}",
                            NameParameter.of("topic")
                                    .described("A Kafka topic name: 1 to 249 characters of [a-zA-Z0-9._-], not . or ..")
                                    .matching(TOPIC_NAME_PATTERN)),
                    KafkaNames::topic,
                    "orders")
            .accepts(LimitPart.PUBLISH, LimitPart.DISPATCH, LimitPart.REQUESTS)
            .rank(10)
            .description("one Kafka topic (all its partitions together)")
            .build();

    /** Every topic whose name starts with the prefix, as a tenant would own them; a topic falls under its longest. */
    public static final ScopeKind PREFIX = ScopeKind.builder(PROTOCOL, "prefix")
            .field("kafka", "prefixes")
            .cliName("kafka-prefix")
            .named(
                    NameTemplate.of(
                            "{prefix}",
                            NameParameter.of("prefix")
                                    .described("A Kafka topic name prefix: 1 to 249 characters of [a-zA-Z0-9._-]")
                                    .matching(TOPIC_NAME_PATTERN)),
                    KafkaNames::prefix,
                    "orders.")
            .accepts(LimitPart.PUBLISH, LimitPart.DISPATCH, LimitPart.REQUESTS)
            .rank(20)
            .description("every Kafka topic whose name starts with a prefix, together")
            .build();

    /** What a Kafka identity's limit takes besides {@code publish}: the same for client ids and principals. */
    private static final LimitPart[] IDENTITY_PARTS = {
        LimitPart.DISPATCH, LimitPart.CONNECTIONS, LimitPart.REQUESTS, LimitPart.MUTATIONS
    };

    /** Everything one client id produces or fetches. */
    public static final ScopeKind CLIENT = ScopeKind.builder(PROTOCOL, "client")
            .field("kafka", "clients")
            .cliName("kafka-client")
            .named(
                    NameTemplate.of(
                            "{clientId}",
                            NameParameter.of("clientId")
                                    .described("A Kafka client id, percent-encoded: any 1 to 255 characters")
                                    .atMost(KafkaNames.MAX_CLIENT_ID_LENGTH)),
                    KafkaNames::clientId,
                    "billing-service")
            .withDefault()
            .accepts(LimitPart.PUBLISH, IDENTITY_PARTS)
            .rank(30)
            .description(
                    "everything one Kafka client id produces or fetches, together; \"*\" each client id without an entry")
            .build();

    /**
     * Everything one authenticated principal produces or fetches, over every connection and client
     * id; {@code "*"} gives each principal without an entry a bucket of its own.
     */
    public static final ScopeKind PRINCIPAL = ScopeKind.builder(PROTOCOL, "principal")
            .field("kafka", "principals")
            .cliName("kafka-principal")
            .named(
                    NameTemplate.of(
                            "{principal}",
                            NameParameter.of("principal")
                                    .described("A Kafka principal as Kafka names it (User:alice), percent-encoded;"
                                            + " * for each principal without an entry")
                                    .atMost(IdentityName.MAX_LENGTH)),
                    IdentityName.rule("a Kafka principal"),
                    "User:alice")
            .withDefault()
            .accepts(LimitPart.PUBLISH, IDENTITY_PARTS)
            .rank(40)
            .description(
                    "everything one Kafka principal produces or fetches, together; \"*\" each principal without an entry")
            .build();

    /**
     * The JoinGroup and OffsetCommit requests of consumer groups (docs/REFERENCE.md, "Limits by
     * consumer group"): a name is a group id or a glob of them ({@code orders-*}), all the groups a
     * glob names sharing its bucket ({@link GroupScopes}); {@code "*"} each group no entry names, in
     * a bucket of its own. Takes rates of joins and commits only.
     */
    public static final ScopeKind GROUP = ScopeKind.builder(PROTOCOL, "group")
            .field("kafka", "groups")
            .cliName("kafka-group")
            .named(
                    NameTemplate.of(
                            "{group}",
                            NameParameter.of("group")
                                    .described("A consumer group id, or a glob of them (* any run of characters),"
                                            + " percent-encoded; * alone for each group without an entry")
                                    .atMost(KafkaNames.MAX_GROUP_LENGTH)),
                    KafkaNames::group,
                    "orders-*")
            .withDefault()
            .accepts(LimitPart.JOINS, LimitPart.COMMITS)
            .rank(50)
            .description("the consumer groups a group id or glob names, together; \"*\" each group without an entry")
            .build();

    /** The principal of a connection that has not authenticated, as Kafka names it. */
    public static final String ANONYMOUS = "User:ANONYMOUS";

    /** The client id a Kafka client gave, as its throttles name it. */
    public static final IdentityField CLIENT_ID = IdentityField.text("clientId", "The Kafka client id");

    /** The principal of a Kafka connection, as its throttles and the throttle metrics name it. */
    public static final IdentityField PRINCIPAL_FIELD = IdentityField.label(
            "principal", "The Kafka connection's principal as the broker accepted it (User:ANONYMOUS before)");

    /**
     * The consumer group a throttle of JoinGroup or OffsetCommit requests is for: a member is known
     * by its group there, and such a throttle has no topic.
     */
    public static final IdentityField GROUP_ID = IdentityField.text(
            "group",
            "The consumer group whose JoinGroup or OffsetCommit requests are held or refused (such an entry has no topic)");

    /** Kafka's kinds and identity fields, as the server registers them in its scope catalogue. */
    public static final ProtocolScopes DECLARED = new ProtocolScopes(
            PROTOCOL,
            List.of(TOPIC, PREFIX, CLIENT, PRINCIPAL, GROUP),
            topic -> List.of(new ScopeRef(TOPIC, topic)),
            List.of(CLIENT_ID, PRINCIPAL_FIELD, GROUP_ID));

    private KafkaScopes() {}

    /**
     * The chain of {@code topic} as used by {@code clientId} authenticated as {@code principal}:
     * topic, longest prefix, client id, principal.
     *
     * @param clientId the request header's client id; {@code null} or empty (Kafka allows both) has no client scope
     * @param principal the connection's principal, {@link #ANONYMOUS} before (or without) authentication
     */
    public static ScopeChain topic(String topic, String clientId, String principal) {
        ScopeRef topicScope = new ScopeRef(TOPIC, topic);
        ScopeRef clientScope = clientId == null || clientId.isEmpty() ? null : new ScopeRef(CLIENT, clientId);
        ScopeRef principalScope = new ScopeRef(PRINCIPAL, principal);
        return limits -> {
            List<ScopeRef> scopes = new ArrayList<>(4);
            scopes.add(topicScope);
            String prefix = longestPrefix(limits, topic);
            if (prefix != null) {
                scopes.add(new ScopeRef(PREFIX, prefix));
            }
            if (clientScope != null) {
                scopes.add(clientScope);
            }
            scopes.add(principalScope);
            return scopes;
        };
    }

    /** The longest prefix of {@code topic} that has a limit, or {@code null}. */
    static String longestPrefix(LimitsDocument limits, String topic) {
        Map<String, ?> prefixes = limits.limitsOf(PREFIX);
        if (prefixes.isEmpty()) {
            return null;
        }
        for (int length = topic.length(); length > 0; length--) {
            String candidate = topic.substring(0, length);
            if (prefixes.containsKey(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
