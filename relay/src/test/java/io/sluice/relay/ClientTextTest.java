package io.sluice.relay;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientTextTest {

    @Test
    void controlCharactersQuotesAndBackslashesAreEscapedSoNoValueStartsALineOfItsOwn() {
        assertEquals(
                "pulsar://a\\n2026-12-02 WARN forged\\r\\t\\\"q\\\" \\\\ \\u001b[31m \\u2028",
                ClientText.of("pulsar://a\n2026-12-02 WARN forged\r\t\"q\" \\ \u001b[31m \u2028"));
    }

    @Test
    void aLongValueIsCutAt256CharactersSayingHowLongItWas() {
        String url = "pulsar://" + "x\n".repeat(5 * 1024);

        String logged = ClientText.of(url);

        assertFalse(logged.contains("\n"));
        assertTrue(logged.startsWith("pulsar://x\\nx\\n"), logged);
        assertTrue(logged.endsWith("...(cut, 10249 characters in all)"), logged);
        String kept = logged.substring(0, logged.indexOf("...(cut"));
        assertFalse(kept.endsWith("\\"), "an escape cut in half: " + logged);
        assertTrue(
                logged.length() <= ClientText.MAX_CHARACTERS + "...(cut, 10249 characters in all)".length(),
                logged.length() + ": " + logged);
    }

    @Test
    void aShortValueIsUnchangedAndNullIsSaid() {
        assertEquals("pulsar://broker-1:6650", ClientText.of("pulsar://broker-1:6650"));
        assertEquals("null", ClientText.of(null));
    }
}
