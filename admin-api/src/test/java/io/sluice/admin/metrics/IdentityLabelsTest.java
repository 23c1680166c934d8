package io.sluice.admin.metrics;

import io.sluice.status.ClientIdentity;
import io.sluice.status.IdentityField;
import io.sluice.status.ThrottleLedger.EventKey;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The most often throttled identities keep their name, up to the maximum; the rest are {@code _other}. */
class IdentityLabelsTest {

    private static final IdentityField PRINCIPAL = IdentityField.label("principal", "a principal");
    private static final IdentityField ROLE = IdentityField.label("role", "a role");

    @Test
    void theMostThrottledIdentitiesKeepTheirNamesTheRestAreOther() {
        Map<EventKey, Long> events = new LinkedHashMap<>();
        events.put(event("orders", PRINCIPAL, "User:alice"), 40L);
        events.put(event("payments", PRINCIPAL, "User:alice"), 5L);
        events.put(event("orders", PRINCIPAL, "User:bob"), 30L);
        events.put(event("orders", PRINCIPAL, "User:carol"), 10L);
        events.put(event("orders", ROLE, "dave"), 44L);
        events.put(event("orders", ROLE, "erin"), 1L);
        events.put(event("orders", ROLE, null), 1000L);

        IdentityLabels labels = IdentityLabels.select(events, 3);

        // alice 45 (her two counters together), dave 44, bob 30 keep their names; carol and erin do not.
        assertEquals("User:alice", label(labels, PRINCIPAL, "User:alice"));
        assertEquals("dave", label(labels, ROLE, "dave"));
        assertEquals("User:bob", label(labels, PRINCIPAL, "User:bob"));
        assertEquals("_other", label(labels, PRINCIPAL, "User:carol"));
        assertEquals("_other", label(labels, ROLE, "erin"));
        assertNull(label(labels, ROLE, null), "no identity is not an identity");
    }

    @Test
    void twoLabelsWithTheSameValueAreTwoIdentities() {
        Map<EventKey, Long> events = new LinkedHashMap<>();
        events.put(event("t", PRINCIPAL, "alice"), 2L);
        events.put(event("t", ROLE, "alice"), 3L);

        IdentityLabels labels = IdentityLabels.select(events, 1);

        assertEquals("alice", label(labels, ROLE, "alice"));
        assertEquals("_other", label(labels, PRINCIPAL, "alice"));
    }

    @Test
    void noNamesWithAMaximumOfZero() {
        IdentityLabels labels = IdentityLabels.select(Map.of(event("t", ROLE, "alice"), 9L), 0);
        assertEquals("_other", label(labels, ROLE, "alice"));
    }

    private static String label(IdentityLabels labels, IdentityField field, String value) {
        return (String) labels.bounded(ClientIdentity.of(field.of(value))).get(field.name());
    }

    private static EventKey event(String topic, IdentityField field, String value) {
        return new EventKey(
                "test", topic, field.name(), "publish_messages", "delay", ClientIdentity.of(field.of(value)));
    }
}
