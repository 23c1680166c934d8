package io.sluice.pulsar.scopes;

import io.sluice.limits.IdentityName;
import io.sluice.limits.LimitPart;
import io.sluice.limits.NameParameter;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.ProtocolScopes;
import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.settings.InvalidSettingsException;
import io.sluice.status.IdentityField;

import java.util.ArrayList;
import java.util.List;

/**
 * Pulsar's scopes, declared once: a message on a topic must fit the topic's limit (or the
 * partition's and then its partitioned topic's), its namespace's, its tenant's and the role's the
 * broker accepted for the connection. The kinds sit
 * at the top level of the limits document, where they were before Sluice spoke Kafka, so that
 * older files load unchanged; the admin routes, the OpenAPI document, the CLI's scopes and the
 * limits metrics follow from these declarations ({@link #DECLARED}).
 */
public final class PulsarScopes {

    /** The protocol of Pulsar's meters, throttles and metrics. */
    public static final String PROTOCOL = "pulsar";

    private static final NameParameter TENANT_PART =
            NameParameter.of("tenant").matching("^" + TenantName.PART.pattern() + "$");
    private static final NameParameter NAMESPACE_PART =
            NameParameter.of("namespace").matching("^" + TenantName.PART.pattern() + "$");

    /** A topic or one partition of it, {@code persistent://tenant/namespace/topic}. */
    public static final ScopeKind TOPIC = ScopeKind.builder(PROTOCOL, "topic")
            .field("topics")
            .cliName("topic")
            .named(
                    NameTemplate.of(
                            "{domain}://{tenant}/{namespace}/{topic}",
                            NameParameter.of("domain").oneOf("persistent", "non-persistent"),
                            TENANT_PART,
                            NAMESPACE_PART,
                            NameParameter.of("topic")
                                    .described(
                                            "The local topic name, percent-encoded; a partition is name-partition-N")),
                    TopicName::parse,
                    "persistent://public/default/orders")
            .accepts(LimitPart.PUBLISH, LimitPart.DISPATCH, LimitPart.REQUESTS)
            .rank(10)
            .description("one topic (the key domain://tenant/namespace/topic in the document)")
            .build();

    /** A namespace, {@code tenant/namespace}: all its topics together. */
    public static final ScopeKind NAMESPACE = ScopeKind.builder(PROTOCOL, "namespace")
            .field("namespaces")
            .cliName("namespace")
            .named(
                    NameTemplate.of("{tenant}/{namespace}", TENANT_PART, NAMESPACE_PART),
                    NamespaceName::parse,
                    "public/default")
            .accepts(LimitPart.PUBLISH, LimitPart.DISPATCH, LimitPart.REQUESTS)
            .rank(20)
            .description("one namespace (all its topics together)")
            .build();

    /** A tenant: all its topics together. */
    public static final ScopeKind TENANT = ScopeKind.builder(PROTOCOL, "tenant")
            .field("tenants")
            .cliName("tenant")
            .named(NameTemplate.of("{tenant}", TENANT_PART), TenantName::parse, "public")
            .accepts(LimitPart.PUBLISH, LimitPart.DISPATCH, LimitPart.REQUESTS)
            .rank(30)
            .description("one tenant (all its topics together)")
            .build();

    /**
     * Everything one authenticated role publishes or receives, over every connection and topic;
     * {@code "*"} gives each role without an entry a bucket of its own.
     */
    public static final ScopeKind ROLE = ScopeKind.builder(PROTOCOL, "role")
            .field("roles")
            .cliName("role")
            .named(
                    NameTemplate.of(
                            "{role}",
                            NameParameter.of("role")
                                    .described("A Pulsar role, percent-encoded; * for each role without an entry")
                                    .atMost(IdentityName.MAX_LENGTH)),
                    IdentityName.rule("a Pulsar role"),
                    "alice")
            .withDefault()
            .accepts(LimitPart.PUBLISH, LimitPart.DISPATCH, LimitPart.CONNECTIONS, LimitPart.REQUESTS)
            .rank(40)
            .description("everything one Pulsar role publishes or receives, together; \"*\" each role without an entry")
            .build();

    /** The role of a Pulsar connection, as its throttles and the throttle metrics name it. */
    public static final IdentityField ROLE_FIELD =
            IdentityField.label("role", "The Pulsar connection's role as the broker accepted it");

    /** The id of a throttled Pulsar producer on its connection. */
    public static final IdentityField PRODUCER_ID = IdentityField.integer("producerId", "The Pulsar producer's id");

    /** The id of a throttled Pulsar consumer on its connection. */
    public static final IdentityField CONSUMER_ID = IdentityField.integer("consumerId", "The Pulsar consumer's id");

    /** Pulsar's kinds and identity fields, as the server registers them in its scope catalogue. */
    public static final ProtocolScopes DECLARED = new ProtocolScopes(
            PROTOCOL,
            List.of(TOPIC, NAMESPACE, TENANT, ROLE),
            PulsarScopes::topicScopes,
            List.of(ROLE_FIELD, PRODUCER_ID, CONSUMER_ID));

    private PulsarScopes() {}

    /**
     * The chain of {@code topic} without a role: {@code persistent://t/n/x-partition-2} falls under
     * itself, {@code persistent://t/n/x}, namespace {@code t/n} and tenant {@code t}. A name that is
     * not a valid fully qualified topic name can have no such limit and falls under the proxy alone.
     */
    public static ScopeChain topic(String topic) {
        return topic(topic, null);
    }

    /**
     * The chain of {@code topic} as {@link #topic(String)} has it, then {@code role}'s.
     *
     * @param role the role the broker accepted for the connection; {@code null} for none
     */
    public static ScopeChain topic(String topic, String role) {
        List<ScopeRef> scopes = new ArrayList<>(5);
        TopicName name = parseOrNull(topic);
        if (name != null) {
            scopes.addAll(topicScopes(name));
            scopes.add(new ScopeRef(NAMESPACE, name.namespaceName()));
            scopes.add(new ScopeRef(TENANT, name.tenant()));
        }
        if (role != null) {
            scopes.add(new ScopeRef(ROLE, role));
        }
        List<ScopeRef> chain = List.copyOf(scopes);
        return limits -> chain;
    }

    /**
     * The chain of a request about namespace {@code namespace} as a whole (a Pulsar client's list
     * of its topics): the namespace and its tenant, then {@code role}'s. A name that is not a valid
     * {@code tenant/namespace} has neither.
     *
     * @param role the role the broker accepted for the connection; {@code null} for none
     */
    public static ScopeChain namespace(String namespace, String role) {
        List<ScopeRef> scopes = new ArrayList<>(3);
        try {
            NamespaceName name = NamespaceName.parse(namespace);
            scopes.add(new ScopeRef(NAMESPACE, name.toString()));
            scopes.add(new ScopeRef(TENANT, name.tenant()));
        } catch (InvalidSettingsException notANamespace) {
            // No namespace or tenant scope: the broker refuses the name anyway.
        }
        if (role != null) {
            scopes.add(new ScopeRef(ROLE, role));
        }
        List<ScopeRef> chain = List.copyOf(scopes);
        return limits -> chain;
    }

    /** The scopes a topic's own limit may sit at: the topic, and for a partition its partitioned topic. */
    static List<ScopeRef> topicScopes(String topic) {
        TopicName name = parseOrNull(topic);
        return name == null ? List.of() : topicScopes(name);
    }

    private static List<ScopeRef> topicScopes(TopicName name) {
        ScopeRef topic = new ScopeRef(TOPIC, name.toString());
        return name.isPartition() ? List.of(topic, new ScopeRef(TOPIC, name.baseName())) : List.of(topic);
    }

    private static TopicName parseOrNull(String topic) {
        try {
            return TopicName.parse(topic);
        } catch (InvalidSettingsException notATopic) {
            return null;
        }
    }
}
