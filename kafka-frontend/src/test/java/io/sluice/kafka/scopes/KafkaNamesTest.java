package io.sluice.kafka.scopes;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class KafkaNamesTest {

    @Test
    void aClientIdIsChargedAsItselfUnlessTooLongOrHoldingControlCharacters() {
        assertEquals("producer-1", KafkaNames.chargedClientId("producer-1"));
        assertEquals("ünïcödé €", KafkaNames.chargedClientId("ünïcödé €"));
        assertEquals("x".repeat(255), KafkaNames.chargedClientId("x".repeat(255)));
        assertEquals("", KafkaNames.chargedClientId(""));
        assertNull(KafkaNames.chargedClientId(null));

        assertEquals(KafkaNames.INVALID_CLIENT_ID, KafkaNames.chargedClientId("x".repeat(256)));
        assertEquals(KafkaNames.INVALID_CLIENT_ID, KafkaNames.chargedClientId("a\nb"));
        assertEquals(KafkaNames.INVALID_CLIENT_ID, KafkaNames.chargedClientId("\u001b[31m"));
        assertEquals(KafkaNames.INVALID_CLIENT_ID, KafkaNames.chargedClientId("del\u007f"));
        assertEquals(KafkaNames.INVALID_CLIENT_ID, KafkaNames.chargedClientId("c1\u0085"));
    }

    @Test
    void theInvalidClientIsAClientIdALimitMayBeSetFor() {
        assertEquals(KafkaNames.INVALID_CLIENT_ID, KafkaNames.clientId(KafkaNames.INVALID_CLIENT_ID));
    }
}
