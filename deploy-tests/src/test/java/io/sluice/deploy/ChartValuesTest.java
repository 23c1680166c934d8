package io.sluice.deploy;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Values that cannot work fail at install time with a message, not in a crash-looping pod. */
class ChartValuesTest {

    @Test
    void unknownModeIsRefused() {
        ChartChecks.assertRefused("mode: gateway\n", "mode");
    }

    @Test
    void proxyModeNeedsAnUpstream() {
        ChartChecks.assertRefused("mode: proxy\n", "upstream");
    }

    @Test
    void upstreamMustBeAPulsarUrl() {
        ChartChecks.assertRefused("mode: proxy\nupstream: http://pulsar-broker:8080\n", "pulsar://");
        Chart.template("mode: proxy\nreplicas: 1\nupstream: pulsar+ssl://pulsar-broker:6651\n");
    }

    @Test
    void gracePeriodNotLongerThanTheDrainIsRefused() {
        ChartChecks.assertRefused(
                "drainTimeoutSeconds: 30\nterminationGracePeriodSeconds: 30\n", "terminationGracePeriodSeconds");
    }

    @Test
    void theProxyProtocolIsOneOfItsModes() {
        ChartChecks.assertRefused("proxyProtocol: v3\n", "proxyProtocol");
    }

    @Test
    void timeoutsForStalledPeersMustBePositive() {
        ChartChecks.assertRefused("handshakeTimeoutSeconds: 0\n", "handshakeTimeoutSeconds");
        ChartChecks.assertRefused("adminIdleTimeoutSeconds: 0\n", "adminIdleTimeoutSeconds");
        ChartChecks.assertRefused("frameTimeoutSeconds: 0\n", "frameTimeoutSeconds");
    }

    @Test
    void gracePeriodFollowsTheDrainTimeout() {
        int grace = Chart.template("drainTimeoutSeconds: 120\n")
                .configMapYaml("sluice-sidecar-patch", "patch.yaml")
                .path("spec")
                .path("template")
                .path("spec")
                .path("terminationGracePeriodSeconds")
                .asInt();
        assertEquals(140, grace);
    }
}
