package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.testing.BrokerResponses;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One walk of a Produce response answers both the gate's question and the rewriter's. */
@ExtendWith(LeakCheck.class)
class ProduceResponseScanTest {

    private final WireCursor cursor = new WireCursor();

    @Test
    void oneWalkFindsRefusalsAndNodeEndpointsInEveryVersion() {
        HandledApi api = HandledApi.PRODUCE;
        for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
            for (boolean refusing : new boolean[] {false, true}) {
                for (boolean with : new boolean[] {false, true}) {
                    ProduceResponseData data = BrokerResponses.produce(version, with);
                    if (!refusing) {
                        data.responses().forEach(t -> t.partitionResponses().forEach(p -> p.setErrorCode((short) 0)));
                    }
                    ByteBuf frame = KafkaFrames.response(data, version, 3);
                    try {
                        ResponseFrame response =
                                new ResponseFrame().lend(KafkaFrames.view(frame), api.key().id, version);
                        String what = "v" + version + (refusing ? " refusing" : "") + (with ? " with endpoints" : "");
                        assertEquals(refusing, response.produceScan().refusesAny(), what);
                        boolean endpoints = NodeEndpointsProbe.carriesNodeEndpoints(
                                api, version, KafkaFrames.view(frame), response.bodyIndex(), cursor);
                        assertEquals(with && version >= 10, endpoints, what);
                        assertEquals(endpoints, response.carriesNodeEndpoints(api), what);
                    } finally {
                        frame.release();
                    }
                }
            }
        }
    }

    /** A frame Sluice puts in the broker's place (its answers merged in) is walked anew, not answered from the old walk. */
    @Test
    void aReplacedFrameIsWalkedAgain() {
        short version = 11;
        ProduceResponseData clean = BrokerResponses.produce(version, false);
        clean.responses().forEach(t -> t.partitionResponses().forEach(p -> p.setErrorCode((short) 0)));
        ByteBuf broker = KafkaFrames.response(clean, version, 3);
        ResponseFrame response = new ResponseFrame().lend(KafkaFrames.view(broker), ApiKeys.PRODUCE.id, version);
        try {
            assertFalse(response.produceScan().refusesAny());
            response.replace(KafkaFrames.response(BrokerResponses.produce(version, true), version, 3));
            assertTrue(response.produceScan().refusesAny());
            assertTrue(response.carriesNodeEndpoints(HandledApi.PRODUCE));
        } finally {
            response.release();
            broker.release();
        }
    }
}
