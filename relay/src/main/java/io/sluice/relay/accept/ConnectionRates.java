package io.sluice.relay.accept;

import io.sluice.limits.AddressScopes;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;

import java.net.InetAddress;
import java.util.Objects;

/**
 * Where a new client connection is charged: the engine's connection bucket of the {@code ips}
 * scope its address falls under ({@link AddressScopes}), made again from the limits in force
 * whenever they change. Thread-safe: one serves every connection of a port.
 */
public final class ConnectionRates {

    private final QuotaEngine quotas;
    private volatile Resolved resolved;

    public ConnectionRates(QuotaEngine quotas) {
        this.quotas = Objects.requireNonNull(quotas, "quotas");
        LimitsDocument limits = quotas.limits();
        this.resolved = new Resolved(limits, AddressScopes.of(limits));
    }

    /** The engine the buckets are in, whose clock they run on. */
    public QuotaEngine quotas() {
        return quotas;
    }

    /** The path a new connection from {@code address} must fit, or {@code null} when no rate limits it. */
    public QuotaPath pathOf(InetAddress address) {
        LimitsDocument limits = quotas.limits();
        Resolved current = resolved;
        if (current.limits() != limits) {
            current = new Resolved(limits, AddressScopes.of(limits));
            resolved = current;
        }
        if (current.scopes().isEmpty()) {
            return null;
        }
        ScopeRef scope = current.scopes().scopeOf(address);
        if (scope == null) {
            return null;
        }
        QuotaPath path = quotas.connectionPath(scope);
        return path.isUnlimited() ? null : path;
    }

    /** The address scopes of one limits document. */
    private record Resolved(LimitsDocument limits, AddressScopes scopes) {}
}
