package io.sluice.admin.metrics;

import io.sluice.status.ThrottleLedger.EventKey;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The most often throttled principals and roles keep their name, up to the maximum; the rest are {@code _other}. */
class IdentityLabelsTest {

    @Test
    void theMostThrottledIdentitiesKeepTheirNamesTheRestAreOther() {
        Map<EventKey, Long> events = new LinkedHashMap<>();
        events.put(kafka("orders", "User:alice"), 40L);
        events.put(kafka("payments", "User:alice"), 5L);
        events.put(kafka("orders", "User:bob"), 30L);
        events.put(kafka("orders", "User:carol"), 10L);
        events.put(pulsar("orders", "dave"), 44L);
        events.put(pulsar("orders", "erin"), 1L);
        events.put(pulsar("orders", null), 1000L);

        IdentityLabels labels = IdentityLabels.select(events, 3);

        // alice 45 (her two counters together), dave 44, bob 30 keep their names; carol and erin do not.
        assertEquals("User:alice", labels.principal("User:alice"));
        assertEquals("dave", labels.role("dave"));
        assertEquals("User:bob", labels.principal("User:bob"));
        assertEquals("_other", labels.principal("User:carol"));
        assertEquals("_other", labels.role("erin"));
        assertEquals("", labels.role(null), "no identity is not an identity");
        assertEquals("", labels.principal(null));
    }

    @Test
    void aPrincipalAndARoleOfTheSameNameAreTwoIdentities() {
        Map<EventKey, Long> events = new LinkedHashMap<>();
        events.put(kafka("t", "alice"), 2L);
        events.put(pulsar("t", "alice"), 3L);

        IdentityLabels labels = IdentityLabels.select(events, 1);

        assertEquals("alice", labels.role("alice"));
        assertEquals("_other", labels.principal("alice"));
    }

    @Test
    void noNamesWithAMaximumOfZero() {
        IdentityLabels labels = IdentityLabels.select(Map.of(pulsar("t", "alice"), 9L), 0);
        assertEquals("_other", labels.role("alice"));
    }

    private static EventKey kafka(String topic, String principal) {
        return new EventKey("kafka", topic, "principal", "publish_messages", "delay", principal, null);
    }

    private static EventKey pulsar(String topic, String role) {
        return new EventKey("pulsar", topic, "role", "publish_messages", "delay", null, role);
    }
}
