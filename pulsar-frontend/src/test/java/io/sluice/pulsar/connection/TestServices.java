package io.sluice.pulsar.connection;

import io.netty.resolver.DefaultAddressResolverGroup;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/** Proxy-wide services for tests of one connection: the given quotas, admission control disabled. */
final class TestServices {

    private TestServices() {}

    static ProxyServices withQuotas(QuotaEngine quotas) {
        return new ProxyServices(
                quotas,
                new TopicActivity(Duration.ofMinutes(1)),
                new ThrottleLedger(Clock.systemUTC()),
                new ProxyStats("pulsar"),
                new AdmissionController(AdmissionSettings.DEFAULTS, Map.of()),
                new LatencyWindow(),
                new UpstreamConnectFailures(),
                new IncompleteFrames(1L << 30, IncompleteFrames.DEFAULT_FRAME_TIMEOUT),
                DefaultAddressResolverGroup.INSTANCE);
    }
}
