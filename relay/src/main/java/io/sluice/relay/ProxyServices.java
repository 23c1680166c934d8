package io.sluice.relay;

import io.netty.resolver.AddressResolverGroup;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.quota.QuotaEngine;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;

import java.net.SocketAddress;
import java.util.Objects;

/**
 * The state every connection uses: the proxy-wide quotas, traffic meters, throttle ledger and
 * admission control with the signals the proxy feeds it, and its front end's connection counters
 * ({@link #withStats}). All thread-safe.
 *
 * @param upstreamLatency  SEND to SEND_RECEIPT times, recorded by every connection
 * @param connectFailures  failed upstream connects, recorded by every connection
 * @param incompleteFrames what the frames clients have not finished sending may hold, process-wide
 * @param resolver         resolves upstream host names without blocking an event loop ({@link
 *                         io.sluice.relay.connection.UpstreamResolver})
 */
public record ProxyServices(
        QuotaEngine quotas,
        TopicActivity topics,
        ThrottleLedger throttles,
        ProxyStats stats,
        AdmissionController admission,
        LatencyWindow upstreamLatency,
        UpstreamConnectFailures connectFailures,
        IncompleteFrames incompleteFrames,
        AddressResolverGroup<? extends SocketAddress> resolver) {

    public ProxyServices {
        Objects.requireNonNull(quotas, "quotas");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(throttles, "throttles");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(upstreamLatency, "upstreamLatency");
        Objects.requireNonNull(connectFailures, "connectFailures");
        Objects.requireNonNull(incompleteFrames, "incompleteFrames");
        Objects.requireNonNull(resolver, "resolver");
    }

    /** The same services with a front end's own connection counters. */
    public ProxyServices withStats(ProxyStats frontEndStats) {
        return new ProxyServices(
                quotas,
                topics,
                throttles,
                frontEndStats,
                admission,
                upstreamLatency,
                connectFailures,
                incompleteFrames,
                resolver);
    }
}
