package io.sluice.frontend;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A front end's options read and refused with one line naming the option, as Sluice's own are. */
class OptionValuesTest {

    private enum Mode {
        PASSTHROUGH,
        REWRITE
    }

    @Test
    void aBadValueIsOneLineNamingTheOption() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> OptionValues.parse("--line-listen", () -> HostPort.parse("nowhere")));
        assertEquals("invalid --line-listen: expected HOST:PORT, got 'nowhere'", e.getMessage());
        assertEquals(
                "invalid --line-mode: expected passthrough or rewrite, got 'x'",
                assertThrows(IllegalArgumentException.class, () -> OptionValues.parse("--line-mode", () -> mode("x")))
                        .getMessage());
        assertEquals(
                "must be a positive integer, got 0",
                assertThrows(IllegalArgumentException.class, () -> OptionValues.positiveInt("0"))
                        .getMessage());
        assertEquals(
                "must be a positive integer, got 'soon'",
                assertThrows(IllegalArgumentException.class, () -> OptionValues.positiveInt("soon"))
                        .getMessage());
    }

    @Test
    void modesAreEitherWordInAnyCaseAndBlankValuesAreNotSet() {
        assertEquals(Mode.REWRITE, mode("Rewrite"));
        assertEquals(Mode.PASSTHROUGH, mode("passthrough"));
        assertEquals(7, OptionValues.positiveInt(" 7 "));
        OptionValues values = new OptionValues() {
            private final Map<String, String> given = Map.of("--line-upstream", " ", "--line-listen", "h:1");

            @Override
            public String value(String option) {
                return given.get(option);
            }

            @Override
            public boolean flag(String option) {
                return false;
            }
        };
        assertFalse(values.isSet("--line-upstream"));
        assertFalse(values.isSet("--line-absent"));
        assertTrue(values.isSet("--line-listen"));
    }

    @Test
    void optionNamesAreLowerCaseWordsAndFlagsDefaultToFalse() {
        assertThrows(IllegalArgumentException.class, () -> FrontEndOption.text(400, "--Line", "X", null, "d"));
        assertThrows(IllegalArgumentException.class, () -> FrontEndOption.text(400, "line-listen", "X", null, "d"));
        FrontEndOption flag = FrontEndOption.flag(410, "--line-tls", "d");
        assertTrue(flag.flag());
        assertEquals("false", flag.defaultValue());
        assertEquals("BOOLEAN", flag.paramLabel());
    }

    private static Mode mode(String text) {
        return OptionValues.either(text, "passthrough", Mode.PASSTHROUGH, "rewrite", Mode.REWRITE);
    }
}
