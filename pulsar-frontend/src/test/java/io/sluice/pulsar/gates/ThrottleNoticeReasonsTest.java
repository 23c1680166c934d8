package io.sluice.pulsar.gates;

import io.sluice.limits.ScopeKind;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.scopes.PulsarScopes;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ThrottleNoticeReasonsTest {

    @Test
    void aTopicLimitIsATopicQuota() {
        assertEquals(ThrottlingReason.TopicProduceQuotaExceeded, ThrottleNoticeReasons.of(PulsarScopes.TOPIC));
    }

    @Test
    void namespaceAndTenantLimitsAreGroupQuotasLikeResourceGroups() {
        assertEquals(
                ThrottlingReason.ResourceGroupProduceQuotaExceeded, ThrottleNoticeReasons.of(PulsarScopes.NAMESPACE));
        assertEquals(ThrottlingReason.ResourceGroupProduceQuotaExceeded, ThrottleNoticeReasons.of(PulsarScopes.TENANT));
    }

    @Test
    void theProxyWideLimitStandsForTheBrokerQuota() {
        assertEquals(ThrottlingReason.BrokerProduceQuotaExceeded, ThrottleNoticeReasons.of(ScopeKind.PROXY));
    }
}
