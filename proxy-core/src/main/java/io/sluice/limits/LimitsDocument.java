package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Every limit the proxy enforces: the body of {@code GET /api/v1/limits} and the content of the
 * limits file (docs/REFERENCE.md, "Limits"): the limits of each scope kind by name, and the
 * connection limits. Which kinds there are and where they sit in the JSON form is the
 * {@link ScopeCatalogue}'s business ({@link LimitsJson}); the document itself holds any kind and
 * checks each name with its kind's rule. Immutable; {@link #withLimit} returns a changed copy.
 */
public final class LimitsDocument {

    private static final LimitsDocument EMPTY = new LimitsDocument(Map.of(), ConnectionLimits.DEFAULT);

    /** Only kinds that have limits, each map sorted (so output is stable) and unmodifiable. */
    private final Map<ScopeKind, SortedMap<String, Limit>> limits;

    private final ConnectionLimits connection;

    /** @param limits checked already, as {@link NamedLimits#checkedCopy} leaves them; empty maps are left out */
    LimitsDocument(Map<ScopeKind, SortedMap<String, Limit>> limits, ConnectionLimits connection) {
        Map<ScopeKind, SortedMap<String, Limit>> copy = new HashMap<>();
        limits.forEach((kind, named) -> {
            if (!named.isEmpty()) {
                copy.put(kind, named);
            }
        });
        this.limits = Collections.unmodifiableMap(copy);
        this.connection = connection == null ? ConnectionLimits.DEFAULT : connection;
    }

    /** No limits and default connection limits. */
    public static LimitsDocument empty() {
        return EMPTY;
    }

    /** The limit set for {@code scope}, or {@code null} when it has none. */
    public Limit limitOf(ScopeRef scope) {
        SortedMap<String, Limit> named = limits.get(scope.kind());
        return named == null ? null : named.get(scope.name());
    }

    /**
     * The limit {@code scope}'s traffic must fit: its own, else, for a kind with a default
     * ({@link ScopeKind#hasDefault()}), the kind's {@link ScopeKind#DEFAULT_NAME} entry; {@code null}
     * when neither is set. The engine charges each scope in a bucket of its own either way.
     */
    public Limit limitInForce(ScopeRef scope) {
        SortedMap<String, Limit> named = limits.get(scope.kind());
        if (named == null) {
            return null;
        }
        Limit own = named.get(scope.name());
        return own != null || !scope.kind().hasDefault() ? own : named.get(ScopeKind.DEFAULT_NAME);
    }

    /** The limits of every scope of {@code kind} by name, sorted and unmodifiable; empty when it has none. */
    public SortedMap<String, Limit> limitsOf(ScopeKind kind) {
        SortedMap<String, Limit> named = limits.get(kind);
        return named == null ? Collections.emptySortedMap() : named;
    }

    /** The kinds that have at least one limit. */
    public Set<ScopeKind> limitedKinds() {
        return limits.keySet();
    }

    /**
     * Whether some limit of this document sets {@code part}: a gate that charges only that part
     * has nothing to do without one.
     */
    public boolean sets(LimitPart part) {
        for (Map<String, Limit> named : limits.values()) {
            for (Limit limit : named.values()) {
                if (part.isSetIn(limit)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The proxy-wide limit, or {@code null} for none. */
    public Limit proxy() {
        return limitOf(ScopeRef.PROXY);
    }

    /** What each client connection may have outstanding. */
    public ConnectionLimits connection() {
        return connection;
    }

    /**
     * This document with {@code scope}'s limit set, or removed when {@code limit} is {@code null}.
     *
     * @throws InvalidSettingsException when the scope's name breaks its kind's rule, naming the
     *     entry, e.g. {@code kafka.prefixes["a*"]}
     */
    public LimitsDocument withLimit(ScopeRef scope, Limit limit) {
        ScopeKind kind = scope.kind();
        String name;
        try {
            name = kind.canonicalName(scope.name());
        } catch (InvalidSettingsException e) {
            throw e.under(kind.fieldPath() + "[" + InvalidSettingsException.quoted(scope.name()) + "]");
        }
        Map<ScopeKind, SortedMap<String, Limit>> changed = new HashMap<>(limits);
        changed.put(
                kind, NamedLimits.checkedCopy(kind.fieldPath(), NamedLimits.with(limitsOf(kind), name, limit), kind));
        return new LimitsDocument(changed, connection);
    }

    /** This document with other connection limits ({@code null} for the defaults). */
    public LimitsDocument withConnection(ConnectionLimits limits) {
        return new LimitsDocument(this.limits, limits);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LimitsDocument document
                && document.limits.equals(limits)
                && document.connection.equals(connection);
    }

    @Override
    public int hashCode() {
        return Objects.hash(limits, connection);
    }

    @Override
    public String toString() {
        Map<String, SortedMap<String, Limit>> byKind = new TreeMap<>();
        limits.forEach((kind, named) -> byKind.put(kind.id(), named));
        return "LimitsDocument[limits=" + byKind + ", connection=" + connection + "]";
    }
}
