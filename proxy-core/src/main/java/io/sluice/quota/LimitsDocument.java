package io.sluice.quota;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Every limit the proxy enforces: the body of {@code GET /api/v1/limits} and the content of the
 * limits file (SPEC section 2). Immutable; the {@code with...} methods return a changed copy.
 *
 * @param topics limits by fully qualified topic name (a partition may have its own)
 * @param namespaces limits by {@code tenant/namespace}
 * @param tenants limits by tenant
 * @param proxy the proxy-wide limit, or {@code null} for none
 * @param connection what each client connection may have outstanding
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LimitsDocument(Map<String, Limit> topics,
                             Map<String, Limit> namespaces,
                             Map<String, Limit> tenants,
                             Limit proxy,
                             ConnectionLimits connection) {

    private static final LimitsDocument EMPTY = new LimitsDocument(null, null, null, null, null);

    /**
     * Absent maps become empty and an absent {@code connection} takes the defaults. The maps are
     * copied into unmodifiable sorted maps, so output is stable.
     *
     * @throws InvalidLimitsException for a bad scope name or a missing limit, naming the entry
     */
    public LimitsDocument {
        topics = checkedCopy("topics", topics, TopicName::parse);
        namespaces = checkedCopy("namespaces", namespaces, NamespaceName::parse);
        tenants = checkedCopy("tenants", tenants, TenantName::parse);
        if (connection == null) {
            connection = ConnectionLimits.DEFAULT;
        }
    }

    /** No limits and default connection limits. */
    public static LimitsDocument empty() {
        return EMPTY;
    }

    /** This document with {@code topic}'s limit set, or removed when {@code limit} is {@code null}. */
    public LimitsDocument withTopic(String topic, Limit limit) {
        return new LimitsDocument(with(topics, topic, limit), namespaces, tenants, proxy, connection);
    }

    /** This document with {@code namespace}'s limit set, or removed when {@code limit} is {@code null}. */
    public LimitsDocument withNamespace(String namespace, Limit limit) {
        return new LimitsDocument(topics, with(namespaces, namespace, limit), tenants, proxy, connection);
    }

    /** This document with {@code tenant}'s limit set, or removed when {@code limit} is {@code null}. */
    public LimitsDocument withTenant(String tenant, Limit limit) {
        return new LimitsDocument(topics, namespaces, with(tenants, tenant, limit), proxy, connection);
    }

    /** This document with the proxy-wide limit set, or removed when {@code limit} is {@code null}. */
    public LimitsDocument withProxy(Limit limit) {
        return new LimitsDocument(topics, namespaces, tenants, limit, connection);
    }

    /** This document with other connection limits ({@code null} for the defaults). */
    public LimitsDocument withConnection(ConnectionLimits limits) {
        return new LimitsDocument(topics, namespaces, tenants, proxy, limits);
    }

    private static Map<String, Limit> with(Map<String, Limit> map, String name, Limit limit) {
        // A HashMap lets a null name through to the constructor's check, which rejects it properly.
        Map<String, Limit> copy = new HashMap<>(map);
        if (limit == null) {
            copy.remove(name);
        } else {
            copy.put(name, limit);
        }
        return copy;
    }

    private static SortedMap<String, Limit> checkedCopy(String field, Map<String, Limit> map, Consumer<String> nameCheck) {
        SortedMap<String, Limit> copy = new TreeMap<>();
        if (map == null) {
            return Collections.unmodifiableSortedMap(copy);
        }
        for (Map.Entry<String, Limit> entry : map.entrySet()) {
            String at = field + "[" + InvalidLimitsException.quoted(entry.getKey()) + "]";
            try {
                nameCheck.accept(entry.getKey());
            } catch (InvalidLimitsException e) {
                throw e.under(at);
            }
            if (entry.getValue() == null) {
                throw new InvalidLimitsException(at, "must be a limit object, got null");
            }
            copy.put(entry.getKey(), entry.getValue());
        }
        return Collections.unmodifiableSortedMap(copy);
    }
}
