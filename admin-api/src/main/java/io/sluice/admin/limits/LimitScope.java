package io.sluice.admin.limits;

import io.sluice.admin.http.ApiRequest;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.limits.kafka.KafkaNames;
import io.sluice.limits.pulsar.NamespaceName;
import io.sluice.limits.pulsar.TenantName;
import io.sluice.limits.pulsar.TopicName;
import io.sluice.settings.InvalidSettingsException;

/**
 * A kind of scope whose limit has its own endpoint: its path, how its name is read from the path
 * (and checked with its protocol's rules), and which scope of the limits document it addresses.
 */
public enum LimitScope {

    /** Keyed {@code domain://tenant/namespace/topic}. */
    TOPIC(ScopeKind.PULSAR_TOPIC, "/api/v1/limits/topics/{domain}/{tenant}/{namespace}/{topic}") {
        @Override
        String nameIn(ApiRequest request) {
            String domain = request.param("domain");
            if (!domain.equals("persistent") && !domain.equals("non-persistent")) {
                throw new InvalidSettingsException(
                        "domain", "must be persistent or non-persistent, got \"" + domain + "\"");
            }
            String name = domain + "://" + request.param("tenant") + "/" + request.param("namespace") + "/"
                    + request.param("topic");
            return checked("topic", () -> TopicName.parse(name).toString());
        }
    },

    /** Keyed {@code tenant/namespace}. */
    NAMESPACE(ScopeKind.PULSAR_NAMESPACE, "/api/v1/limits/namespaces/{tenant}/{namespace}") {
        @Override
        String nameIn(ApiRequest request) {
            return checked(
                    "namespace",
                    () -> NamespaceName.parse(request.param("tenant") + "/" + request.param("namespace"))
                            .toString());
        }
    },

    TENANT(ScopeKind.PULSAR_TENANT, "/api/v1/limits/tenants/{tenant}") {
        @Override
        String nameIn(ApiRequest request) {
            return checked(
                    "tenant", () -> TenantName.parse(request.param("tenant")).toString());
        }
    },

    KAFKA_TOPIC(ScopeKind.KAFKA_TOPIC, "/api/v1/limits/kafka/topics/{topic}") {
        @Override
        String nameIn(ApiRequest request) {
            return checked("topic", () -> KafkaNames.topic(request.param("topic")));
        }
    },

    KAFKA_PREFIX(ScopeKind.KAFKA_PREFIX, "/api/v1/limits/kafka/prefixes/{prefix}") {
        @Override
        String nameIn(ApiRequest request) {
            return checked("prefix", () -> KafkaNames.prefix(request.param("prefix")));
        }
    },

    /** The client id is percent-encoded in the path; it may hold any character, {@code /} included. */
    KAFKA_CLIENT(ScopeKind.KAFKA_CLIENT, "/api/v1/limits/kafka/clients/{clientId}") {
        @Override
        String nameIn(ApiRequest request) {
            return checked("clientId", () -> KafkaNames.clientId(request.param("clientId")));
        }
    },

    /** One limit for everything through this proxy. */
    PROXY(ScopeKind.PROXY, "/api/v1/limits/proxy") {
        @Override
        String nameIn(ApiRequest request) {
            return ScopeKind.PROXY_NAME;
        }

        @Override
        public String describe(String name) {
            return "the proxy";
        }
    };

    private final ScopeKind kind;
    private final String path;

    LimitScope(ScopeKind kind, String path) {
        this.kind = kind;
        this.path = path;
    }

    /** The route of this scope's limit, as in OpenAPI. */
    public String path() {
        return path;
    }

    /**
     * The scope the request's path names, checked with its protocol's rules.
     *
     * @throws InvalidSettingsException naming the path parameter that is wrong
     */
    public ScopeRef scope(ApiRequest request) {
        return new ScopeRef(kind, nameIn(request));
    }

    abstract String nameIn(ApiRequest request);

    /** The limit of {@code scope} in {@code limits}, or {@code null} when it has none. */
    public Limit read(LimitsDocument limits, ScopeRef scope) {
        return limits.limitOf(scope);
    }

    /** {@code limits} with {@code scope}'s limit set, or removed when {@code limit} is {@code null}. */
    public LimitsDocument write(LimitsDocument limits, ScopeRef scope, Limit limit) {
        return limits.withLimit(scope, limit);
    }

    /** The scope for messages: {@code namespace public/default}, {@code kafka prefix team-a.}. */
    public String describe(String name) {
        return (ScopeKind.PROXY != kind && "kafka".equals(kind.protocol()) ? "kafka " : "") + kind.label() + " " + name;
    }

    private interface NameCheck {
        String check();
    }

    private static String checked(String parameter, NameCheck check) {
        try {
            return check.check();
        } catch (InvalidSettingsException e) {
            throw e.under(parameter);
        }
    }
}
