package io.sluice.pulsar.gates;

import io.sluice.limits.ScopeKind;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.scopes.PulsarScopes;

/**
 * The {@code throttling_reason} a ThrottleProducer notice gives for an exceeded quota scope. The
 * enum comes from the PIP-385 draft, which speaks of a broker: a namespace or tenant limit is an
 * aggregate over a group of topics, as a Pulsar resource group is, and the proxy-wide limit plays
 * the part of the broker's own publish rate.
 */
final class ThrottleNoticeReasons {

    private ThrottleNoticeReasons() {}

    /** @throws IllegalArgumentException for a scope no Pulsar limit can be set at */
    static ThrottlingReason of(ScopeKind scope) {
        if (scope.equals(PulsarScopes.TOPIC)) {
            return ThrottlingReason.TopicProduceQuotaExceeded;
        }
        if (scope.equals(PulsarScopes.NAMESPACE) || scope.equals(PulsarScopes.TENANT)) {
            return ThrottlingReason.ResourceGroupProduceQuotaExceeded;
        }
        if (scope.equals(ScopeKind.PROXY)) {
            return ThrottlingReason.BrokerProduceQuotaExceeded;
        }
        throw new IllegalArgumentException("not a Pulsar scope: " + scope);
    }
}
