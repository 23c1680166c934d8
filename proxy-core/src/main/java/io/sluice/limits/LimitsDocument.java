package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.sluice.limits.pulsar.NamespaceName;
import io.sluice.limits.pulsar.TenantName;
import io.sluice.limits.pulsar.TopicName;
import io.sluice.settings.InvalidSettingsException;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Every limit the proxy enforces: the body of {@code GET /api/v1/limits} and the content of the
 * limits file (docs/REFERENCE.md, "Limits"). Pulsar's scopes sit at the top level, where they were
 * before Sluice spoke Kafka, so that older files load unchanged; Kafka's are in {@link #kafka}.
 * Immutable; {@link #withLimit} returns a changed copy.
 *
 * @param topics Pulsar limits by fully qualified topic name (a partition may have its own)
 * @param namespaces Pulsar limits by {@code tenant/namespace}
 * @param tenants Pulsar limits by tenant
 * @param proxy the proxy-wide limit, or {@code null} for none
 * @param connection what each client connection may have outstanding
 * @param kafka Kafka limits by topic, prefix and client id
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LimitsDocument(
        Map<String, Limit> topics,
        Map<String, Limit> namespaces,
        Map<String, Limit> tenants,
        Limit proxy,
        ConnectionLimits connection,
        KafkaLimits kafka) {

    private static final LimitsDocument EMPTY = new LimitsDocument(null, null, null, null, null, null);

    /**
     * Absent maps become empty, an absent {@code connection} takes the defaults and an absent
     * {@code kafka} section has no limits.
     *
     * @throws InvalidSettingsException for a bad scope name or a missing limit, naming the entry
     */
    public LimitsDocument {
        topics = NamedLimits.checkedCopy("topics", topics, TopicName::parse);
        namespaces = NamedLimits.checkedCopy("namespaces", namespaces, NamespaceName::parse);
        tenants = NamedLimits.checkedCopy("tenants", tenants, TenantName::parse);
        if (connection == null) {
            connection = ConnectionLimits.DEFAULT;
        }
        if (kafka == null) {
            kafka = KafkaLimits.NONE;
        }
    }

    /** No limits and default connection limits. */
    public static LimitsDocument empty() {
        return EMPTY;
    }

    /** The limit set for {@code scope}, or {@code null} when it has none. */
    public Limit limitOf(ScopeRef scope) {
        return switch (scope.kind()) {
            case PULSAR_TOPIC -> topics.get(scope.name());
            case PULSAR_NAMESPACE -> namespaces.get(scope.name());
            case PULSAR_TENANT -> tenants.get(scope.name());
            case KAFKA_TOPIC -> kafka.topics().get(scope.name());
            case KAFKA_PREFIX -> kafka.prefixes().get(scope.name());
            case KAFKA_CLIENT -> kafka.clients().get(scope.name());
            case PROXY -> proxy;
        };
    }

    /**
     * This document with {@code scope}'s limit set, or removed when {@code limit} is {@code null}.
     *
     * @throws InvalidSettingsException when the scope's name breaks its rule
     */
    public LimitsDocument withLimit(ScopeRef scope, Limit limit) {
        String name = scope.name();
        return switch (scope.kind()) {
            case PULSAR_TOPIC ->
                new LimitsDocument(
                        NamedLimits.with(topics, name, limit), namespaces, tenants, proxy, connection, kafka);
            case PULSAR_NAMESPACE ->
                new LimitsDocument(
                        topics, NamedLimits.with(namespaces, name, limit), tenants, proxy, connection, kafka);
            case PULSAR_TENANT ->
                new LimitsDocument(
                        topics, namespaces, NamedLimits.with(tenants, name, limit), proxy, connection, kafka);
            case KAFKA_TOPIC ->
                withKafka(() -> new KafkaLimits(
                        NamedLimits.with(kafka.topics(), name, limit), kafka.prefixes(), kafka.clients()));
            case KAFKA_PREFIX ->
                withKafka(() -> new KafkaLimits(
                        kafka.topics(), NamedLimits.with(kafka.prefixes(), name, limit), kafka.clients()));
            case KAFKA_CLIENT ->
                withKafka(() -> new KafkaLimits(
                        kafka.topics(), kafka.prefixes(), NamedLimits.with(kafka.clients(), name, limit)));
            case PROXY -> new LimitsDocument(topics, namespaces, tenants, limit, connection, kafka);
        };
    }

    /** This document with other connection limits ({@code null} for the defaults). */
    public LimitsDocument withConnection(ConnectionLimits limits) {
        return new LimitsDocument(topics, namespaces, tenants, proxy, limits, kafka);
    }

    private LimitsDocument withKafka(Supplier<KafkaLimits> section) {
        KafkaLimits checked;
        try {
            checked = section.get();
        } catch (InvalidSettingsException e) {
            throw e.under("kafka");
        }
        return new LimitsDocument(topics, namespaces, tenants, proxy, connection, checked);
    }
}
