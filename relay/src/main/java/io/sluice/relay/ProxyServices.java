package io.sluice.relay;

import io.sluice.admission.AdmissionController;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.quota.QuotaEngine;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;

import java.util.Objects;

/**
 * The proxy-wide state every connection uses: quotas, traffic meters, the throttle ledger,
 * connection counters, and admission control with the signals the proxy feeds it. All thread-safe.
 *
 * @param upstreamLatency  SEND to SEND_RECEIPT times, recorded by every connection
 * @param connectFailures  failed upstream connects, recorded by every connection
 */
public record ProxyServices(QuotaEngine quotas, TopicActivity topics, ThrottleLedger throttles, ProxyStats stats,
                            AdmissionController admission, LatencyWindow upstreamLatency,
                            UpstreamConnectFailures connectFailures) {

    public ProxyServices {
        Objects.requireNonNull(quotas, "quotas");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(throttles, "throttles");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(upstreamLatency, "upstreamLatency");
        Objects.requireNonNull(connectFailures, "connectFailures");
    }
}
