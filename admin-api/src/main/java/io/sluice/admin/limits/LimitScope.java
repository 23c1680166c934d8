package io.sluice.admin.limits;

import io.sluice.admin.http.ApiRequest;
import io.sluice.quota.InvalidLimitsException;
import io.sluice.quota.Limit;
import io.sluice.quota.LimitsDocument;
import io.sluice.quota.NamespaceName;
import io.sluice.quota.TenantName;
import io.sluice.quota.TopicName;
import java.util.Locale;

/**
 * A kind of scope whose limit has its own endpoint: where its name is in the path, and where its
 * limit is in the limits document.
 */
public enum LimitScope {

    /** {@code /topics/{domain}/{tenant}/{namespace}/{topic}}, keyed {@code domain://tenant/namespace/topic}. */
    TOPIC {
        @Override
        public String name(ApiRequest request) {
            String domain = request.param("domain");
            if (!domain.equals("persistent") && !domain.equals("non-persistent")) {
                throw new InvalidLimitsException("domain", "must be persistent or non-persistent, got \"" + domain + "\"");
            }
            String name = domain + "://" + request.param("tenant") + "/" + request.param("namespace") + "/" + request.param("topic");
            try {
                return TopicName.parse(name).toString();
            } catch (InvalidLimitsException e) {
                throw e.under("topic");
            }
        }

        @Override
        public Limit read(LimitsDocument limits, String name) {
            return limits.topics().get(name);
        }

        @Override
        public LimitsDocument write(LimitsDocument limits, String name, Limit limit) {
            return limits.withTopic(name, limit);
        }
    },

    /** {@code /namespaces/{tenant}/{namespace}}, keyed {@code tenant/namespace}. */
    NAMESPACE {
        @Override
        public String name(ApiRequest request) {
            try {
                return NamespaceName.parse(request.param("tenant") + "/" + request.param("namespace")).toString();
            } catch (InvalidLimitsException e) {
                throw e.under("namespace");
            }
        }

        @Override
        public Limit read(LimitsDocument limits, String name) {
            return limits.namespaces().get(name);
        }

        @Override
        public LimitsDocument write(LimitsDocument limits, String name, Limit limit) {
            return limits.withNamespace(name, limit);
        }
    },

    /** {@code /tenants/{tenant}}. */
    TENANT {
        @Override
        public String name(ApiRequest request) {
            try {
                return TenantName.parse(request.param("tenant")).toString();
            } catch (InvalidLimitsException e) {
                throw e.under("tenant");
            }
        }

        @Override
        public Limit read(LimitsDocument limits, String name) {
            return limits.tenants().get(name);
        }

        @Override
        public LimitsDocument write(LimitsDocument limits, String name, Limit limit) {
            return limits.withTenant(name, limit);
        }
    },

    /** {@code /proxy}: one limit for everything through this proxy; its name is empty. */
    PROXY {
        @Override
        public String name(ApiRequest request) {
            return "";
        }

        @Override
        public Limit read(LimitsDocument limits, String name) {
            return limits.proxy();
        }

        @Override
        public LimitsDocument write(LimitsDocument limits, String name, Limit limit) {
            return limits.withProxy(limit);
        }

        @Override
        public String describe(String name) {
            return "the proxy";
        }
    };

    /**
     * The scope's name from the request path, checked with the quota package's rules.
     *
     * @throws InvalidLimitsException naming the path parameter that is wrong
     */
    public abstract String name(ApiRequest request);

    /** The limit of {@code name} in {@code limits}, or {@code null} when it has none. */
    public abstract Limit read(LimitsDocument limits, String name);

    /** {@code limits} with {@code name}'s limit set, or removed when {@code limit} is {@code null}. */
    public abstract LimitsDocument write(LimitsDocument limits, String name, Limit limit);

    /** The scope for messages, e.g. {@code namespace public/default}. */
    public String describe(String name) {
        return name().toLowerCase(Locale.ROOT) + " " + name;
    }
}
