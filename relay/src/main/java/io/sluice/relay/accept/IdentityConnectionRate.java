package io.sluice.relay.accept;

import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.RefusedConnections;

import java.net.SocketAddress;

/**
 * An identity's rate of new connections (docs/REFERENCE.md, "Limits by identity"): a connection is
 * charged to its principal, role or client id once its handshake has shown who it is, and one over
 * the rate is closed then, counted in {@code sluice_connections_refused_total} under
 * {@link ConnectionRateGate#REASON} like a connection over its address's rate. Unlike an address,
 * an identity is known only after the broker has seen the connection, so there is no accept to
 * delay: the connection is refused at once, and a client reconnecting in a loop gets the rate.
 * Thread-safe.
 */
public final class IdentityConnectionRate {

    private static final RefusedConnections REFUSED = new RefusedConnections();

    private IdentityConnectionRate() {}

    /**
     * Charges a new connection of {@code identity} (an identity scope: a principal, a role, a client
     * id) to its rate of new connections; whether it may go on. When not, it has been counted and
     * logged, and the caller closes it.
     *
     * @param client the client's address, for the log
     * @param connections what the port's connections are called in log lines: {@code Kafka connection}
     */
    public static boolean admit(
            QuotaEngine quotas, ProxyStats stats, ScopeRef identity, SocketAddress client, String connections) {
        QuotaPath path = quotas.connectionPath(identity);
        if (path.isUnlimited() || path.tryAcquire(quotas.clock().nanoTime(), 1, 0, new QuotaDecision())) {
            return true;
        }
        REFUSED.count(
                client,
                connections,
                stats,
                ConnectionRateGate.REASON,
                "over " + identity.kind().label() + " " + identity.name() + "'s rate of new connections");
        return false;
    }
}
