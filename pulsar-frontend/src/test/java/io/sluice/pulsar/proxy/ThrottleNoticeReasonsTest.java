package io.sluice.pulsar.proxy;

import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.limits.ScopeKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ThrottleNoticeReasonsTest {

    @Test
    void aTopicLimitIsATopicQuota() {
        assertEquals(ThrottlingReason.TopicProduceQuotaExceeded, ThrottleNoticeReasons.of(Scope.TOPIC));
    }

    @Test
    void namespaceAndTenantLimitsAreGroupQuotasLikeResourceGroups() {
        assertEquals(ThrottlingReason.ResourceGroupProduceQuotaExceeded, ThrottleNoticeReasons.of(Scope.NAMESPACE));
        assertEquals(ThrottlingReason.ResourceGroupProduceQuotaExceeded, ThrottleNoticeReasons.of(Scope.TENANT));
    }

    @Test
    void theProxyWideLimitStandsForTheBrokerQuota() {
        assertEquals(ThrottlingReason.BrokerProduceQuotaExceeded, ThrottleNoticeReasons.of(Scope.PROXY));
    }
}
