package io.sluice.pulsar.proxy;

import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.limits.ScopeKind;

/**
 * The {@code throttling_reason} a ThrottleProducer notice gives for an exceeded quota scope. The
 * enum comes from the PIP-385 draft, which speaks of a broker: a namespace or tenant limit is an
 * aggregate over a group of topics, as a Pulsar resource group is, and the proxy-wide limit plays
 * the part of the broker's own publish rate.
 */
final class ThrottleNoticeReasons {

    private ThrottleNoticeReasons() {
    }

    static ThrottlingReason of(Scope scope) {
        return switch (scope) {
            case TOPIC -> ThrottlingReason.TopicProduceQuotaExceeded;
            case NAMESPACE, TENANT -> ThrottlingReason.ResourceGroupProduceQuotaExceeded;
            case PROXY -> ThrottlingReason.BrokerProduceQuotaExceeded;
        };
    }
}
