package io.sluice.kafka.routing;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class TopicIdsTest {

    @Test
    void namesTopicsByIdAndFollowsARename() {
        TopicIds ids = new TopicIds(10);
        Uuid orders = Uuid.randomUuid();
        ids.learn(orders, "orders");
        assertEquals("orders", ids.name(orders));
        ids.learn(orders, "orders-v2");
        assertEquals("orders-v2", ids.name(orders));
        assertNull(ids.name(Uuid.randomUuid()));
    }

    @Test
    void ignoresTopicsInError() {
        TopicIds ids = new TopicIds(10);
        ids.learn(Uuid.ZERO_UUID, "missing");
        ids.learn(Uuid.randomUuid(), null);
        ids.learn(null, "x");
        assertEquals(0, ids.size());
    }

    @Test
    void forgetsTheLongestKnownIdsPastItsCapacity() {
        TopicIds ids = new TopicIds(3);
        Uuid[] topics = new Uuid[5];
        for (int i = 0; i < topics.length; i++) {
            topics[i] = Uuid.randomUuid();
            ids.learn(topics[i], "t" + i);
        }
        assertEquals(3, ids.size());
        assertNull(ids.name(topics[0]));
        assertNull(ids.name(topics[1]));
        assertEquals("t4", ids.name(topics[4]));
    }
}
