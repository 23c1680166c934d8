package io.sluice.pulsar.proxy;

import io.sluice.quota.QuotaEngine;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;

import java.util.Objects;

/**
 * The proxy-wide state every connection uses: quotas, traffic meters, the throttle ledger and
 * connection counters. All thread-safe.
 */
public record ProxyServices(QuotaEngine quotas, TopicActivity topics, ThrottleLedger throttles, ProxyStats stats) {

    public ProxyServices {
        Objects.requireNonNull(quotas, "quotas");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(throttles, "throttles");
        Objects.requireNonNull(stats, "stats");
    }
}
