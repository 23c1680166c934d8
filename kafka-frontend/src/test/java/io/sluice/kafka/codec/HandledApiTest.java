package io.sluice.kafka.codec;

import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandledApiTest {

    @Test
    void thePinnedKafkaClientsReadsEveryVersionSluiceHandles() {
        for (HandledApi api : HandledApi.values()) {
            ApiKeys key = api.key();
            assertTrue(key.oldestVersion() <= api.minVersion(), api + " below what kafka-clients reads");
            assertTrue(api.maxVersion() <= key.latestVersion(false), api + " beyond kafka-clients' stable versions");
            for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
                assertNotNull(key.messageType.requestSchemas()[version], api + " request v" + version);
                assertNotNull(key.messageType.responseSchemas()[version], api + " response v" + version);
            }
        }
    }

    /** Raising a range means reading the new version's schema first: this test makes that a decision. */
    @Test
    void rangesAreTheOnesReviewed() {
        Map<HandledApi, String> ranges = new EnumMap<>(HandledApi.class);
        for (HandledApi api : HandledApi.values()) {
            ranges.put(api, api.minVersion() + "-" + api.maxVersion());
        }
        assertEquals(
                "{PRODUCE=3-13, FETCH=4-18, METADATA=0-13, FIND_COORDINATOR=0-6, INIT_PRODUCER_ID=0-5, JOIN_GROUP=0-9, OFFSET_COMMIT=2-10, "
                        + "DESCRIBE_CLUSTER=0-2, "
                        + "API_VERSIONS=0-4, SASL_HANDSHAKE=0-1, SHARE_FETCH=1-2, SHARE_ACKNOWLEDGE=1-2, "
                        + "CREATE_TOPICS=2-7, CREATE_PARTITIONS=0-3, DELETE_TOPICS=1-6, DESCRIBE_TOPIC_PARTITIONS=0-0}",
                ranges.toString());
    }

    @Test
    void findsHandledApisByKey() {
        assertSame(HandledApi.FETCH, HandledApi.of(ApiKeys.FETCH.id));
        assertNull(HandledApi.of(ApiKeys.SYNC_GROUP.id));
        assertNull(HandledApi.of((short) -1));
        assertNull(HandledApi.of(Short.MAX_VALUE));
    }
}
