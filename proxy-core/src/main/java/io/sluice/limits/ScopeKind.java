package io.sluice.limits;

/**
 * A level limits are set at. Each front end names its own (a Pulsar namespace, a Kafka topic
 * prefix); the proxy-wide scope is shared by all. The engine treats kinds as data: it reads a
 * kind's {@link #label()} for messages and metrics and never branches on which kind it is.
 */
public enum ScopeKind {
    /** A Pulsar topic or partition, {@code persistent://tenant/namespace/topic}. */
    PULSAR_TOPIC("pulsar", "topic"),
    /** A Pulsar namespace, {@code tenant/namespace}. */
    PULSAR_NAMESPACE("pulsar", "namespace"),
    /** A Pulsar tenant. */
    PULSAR_TENANT("pulsar", "tenant"),
    /** A Kafka topic. */
    KAFKA_TOPIC("kafka", "topic"),
    /** Every Kafka topic whose name starts with the prefix, as a tenant would own them. */
    KAFKA_PREFIX("kafka", "prefix"),
    /** Everything one Kafka client id produces or fetches. */
    KAFKA_CLIENT("kafka", "client"),
    /** Everything through this proxy, whatever the protocol. */
    PROXY(null, "proxy");

    /** The name of the single proxy-wide scope. */
    public static final String PROXY_NAME = "proxy";

    private final String protocol;
    private final String label;

    ScopeKind(String protocol, String label) {
        this.protocol = protocol;
        this.label = label;
    }

    /** The protocol whose traffic this scope covers, {@code pulsar} or {@code kafka}; {@code null} for the proxy. */
    public String protocol() {
        return protocol;
    }

    /** Lower-case label for messages and the {@code scope} metrics label: {@code topic}, {@code prefix}, ... */
    public String label() {
        return label;
    }
}
