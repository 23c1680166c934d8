package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The throttle time of a response, raised in place and never lowered. */
@ExtendWith(LeakCheck.class)
class ThrottleTimeFieldTest {

    private final WireCursor cursor = new WireCursor();

    @ParameterizedTest
    @ValueSource(shorts = {3, 6, 9, 10, 13})
    void raisesAProduceResponsesThrottleTimeBehindItsPartitions(short version) {
        ByteBuf frame = KafkaFrames.response(BrokerResponses.produce(version, true), version, 1);
        try {
            int bodyIndex = ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.PRODUCE.id, version, cursor);
            assertEquals(
                    250,
                    ThrottleTimeField.raise(
                            HandledApi.PRODUCE, version, KafkaFrames.view(frame), bodyIndex, 250, cursor));
            ProduceResponseData read = KafkaFrames.body(frame, ApiKeys.PRODUCE, version, new ProduceResponseData());
            assertEquals(250, read.throttleTimeMs());
            ProduceResponseData expected =
                    BrokerResponses.produce(version, true).setThrottleTimeMs(250);
            assertEquals(expected, read, "nothing else changed");
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @ValueSource(shorts = {4, 12, 18})
    void keepsALongerThrottleTimeOfTheBrokers(short version) {
        ByteBuf frame =
                KafkaFrames.response(BrokerResponses.fetch(version, false).setThrottleTimeMs(900), version, 1);
        try {
            int bodyIndex = ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.FETCH.id, version, cursor);
            assertEquals(
                    900,
                    ThrottleTimeField.raise(
                            HandledApi.FETCH, version, KafkaFrames.view(frame), bodyIndex, 250, cursor));
            assertEquals(
                    900,
                    KafkaFrames.body(frame, ApiKeys.FETCH, version, new FetchResponseData())
                            .throttleTimeMs());
        } finally {
            frame.release();
        }
    }

    @ParameterizedTest
    @ValueSource(shorts = {12, 13})
    void raisesTheLeadingThrottleTimeOfAMetadataResponseAndNeverLowersIt(short version) {
        ByteBuf frame = KafkaFrames.response(BrokerResponses.metadata(version).setThrottleTimeMs(40), version, 1);
        try {
            assertTrue(ThrottleTimeField.leadsBody(ApiKeys.METADATA.id, version));
            int bodyIndex = ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.METADATA.id, version, cursor);
            assertEquals(40, ThrottleTimeField.raiseLeading(KafkaFrames.view(frame), bodyIndex, 10, cursor));
            assertEquals(500, ThrottleTimeField.raiseLeading(KafkaFrames.view(frame), bodyIndex, 500, cursor));
            MetadataResponseData read = KafkaFrames.body(frame, ApiKeys.METADATA, version, new MetadataResponseData());
            assertEquals(BrokerResponses.metadata(version).setThrottleTimeMs(500), read, "nothing else changed");
        } finally {
            frame.release();
        }
    }

    @Test
    void aResponseLeadsWithItsThrottleTimeOnlyFromTheVersionThatHasItAndProducesNever() {
        assertFalse(ThrottleTimeField.leadsBody(ApiKeys.METADATA.id, (short) 2), "Metadata has it from v3");
        assertTrue(ThrottleTimeField.leadsBody(ApiKeys.LIST_OFFSETS.id, (short) 2));
        assertTrue(ThrottleTimeField.leadsBody(ApiKeys.FIND_COORDINATOR.id, (short) 1));
        assertFalse(ThrottleTimeField.leadsBody(ApiKeys.PRODUCE.id, (short) 9), "Produce has it last");
        assertFalse(ThrottleTimeField.leadsBody(ApiKeys.METADATA.id, Short.MAX_VALUE), "a version not known");
        assertFalse(ThrottleTimeField.leadsBody((short) 9_999, (short) 0), "an API not known");
    }
}
