package io.sluice.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuantityTest {

    @Test
    void decimalAndBinaryUnitsAsOperatorsWriteThem() {
        assertEquals(500, Quantity.parse("500"));
        assertEquals(5_000, Quantity.parse("5k"));
        assertEquals(5_000, Quantity.parse("5K"));
        assertEquals(1_500_000, Quantity.parse("1.5M"));
        assertEquals(2e9, Quantity.parse("2G"));
        assertEquals(10 * 1024 * 1024, Quantity.parse("10MiB"));
        assertEquals(10 * 1024 * 1024, Quantity.parse("10Mi"));
        assertEquals(512 * 1024, Quantity.parse("512KiB/s"));
        assertEquals(1_500_000, Quantity.parse("1.5MB"));
        assertEquals(64, Quantity.parse(" 64 B "));
        assertEquals(2500, Quantity.parse("2.5e3"));
        assertEquals(0.5, Quantity.parse(".5"));
    }

    @Test
    void unlimitedMeansRemoveTheField() {
        assertTrue(Double.isNaN(Quantity.parse("unlimited")));
        assertTrue(Double.isNaN(Quantity.parse("None")));
    }

    @Test
    void anythingElseIsRefusedWithTheFormsThatWork() {
        for (String bad : new String[] {"", "-1", "fast", "10XB", "10 m", "1.5.5", "k", "10MiB/h", "1e999"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Quantity.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    void wholeNumbersOnlyWhereACountIsMeant() {
        assertEquals(100_000, Quantity.parseWhole("100k"));
        assertEquals(1536, Quantity.parseWhole("1.5Ki"));
        assertThrows(IllegalArgumentException.class, () -> Quantity.parseWhole("1.5"));
        assertThrows(IllegalArgumentException.class, () -> Quantity.parseWhole("unlimited"));
    }

    @Test
    void tablesShowThreeDigitsAndAUnit() {
        assertEquals("0", Quantity.count(0));
        assertEquals("3.5", Quantity.count(3.5));
        assertEquals("999", Quantity.count(999));
        assertEquals("1k", Quantity.count(999.97));
        assertEquals("1.2k", Quantity.count(1234));
        assertEquals("123k", Quantity.count(123_456));
        assertEquals("1.5M", Quantity.count(1_500_000));
        assertEquals("512 B", Quantity.bytes(512));
        assertEquals("1.5 KiB", Quantity.bytes(1536));
        assertEquals("10 MiB", Quantity.bytes(10 * 1024 * 1024));
        assertEquals("128 MiB", Quantity.bytes(128 * 1024 * 1024));
    }
}
