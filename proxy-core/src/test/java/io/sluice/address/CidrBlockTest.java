package io.sluice.address;

import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CidrBlockTest {

    @ParameterizedTest
    @CsvSource({
        "10.1.0.0/16, 10.1.0.0/16",
        "10.1.2.3/16, 10.1.0.0/16",
        "10.1.2.3, 10.1.2.3/32",
        "0.0.0.0/0, 0.0.0.0/0",
        "255.255.255.255/31, 255.255.255.254/31",
        "::1, ::1/128",
        "::, ::/128",
        "2001:DB8::/32, 2001:db8::/32",
        "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1/128",
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1/128",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1/128",
        "::ffff:1.2.3.4, ::ffff:102:304/128",
        "fe80::1:2:3:4:5/10, fe80::/10",
        "1:2:3:4:5:6:7:8/127, 1:2:3:4:5:6:7:8/127",
    })
    void isKeptCanonical(String text, String canonical) {
        CidrBlock block = CidrBlock.parse(text);
        assertEquals(canonical, block.toString());
        CidrBlockFuzzTest.roundTrips(block);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "*",
                "10.1.0.0/33",
                "10.1.0/16",
                "10.1.0.0.0",
                "256.1.1.1",
                "01.1.1.1",
                "1.1.1.1/",
                "1.1.1.1/016",
                "1.1.1.1/-1",
                "1.1.1.1/+8",
                "1.1.1.1 ",
                "localhost",
                "::1/129",
                "1::2::3",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3:4:5:6:7",
                "1:2:3:4:5:6:7::8",
                "12345::",
                "g::",
                ":1",
                "1:",
                "::1.2.3",
                "1.2.3.4::",
                "١.1.1.1",
            })
    void refusesWhatIsNoBlock(String text) {
        InvalidSettingsException e = assertThrows(InvalidSettingsException.class, () -> CidrBlock.parse(text));
        assertTrue(e.getMessage().contains("\"" + text + "\""), e.getMessage());
    }

    @Test
    void refusesOverlongText() {
        assertThrows(InvalidSettingsException.class, () -> CidrBlock.parse("1".repeat(10_000)));
        assertThrows(InvalidSettingsException.class, () -> CidrBlock.parse(null));
    }

    @Test
    void holdsTheAddressesOfItsPrefix() throws Exception {
        CidrBlock block = CidrBlock.parse("10.1.128.0/17");
        assertTrue(block.contains(InetAddress.getByName("10.1.200.7").getAddress()));
        assertFalse(block.contains(InetAddress.getByName("10.1.127.255").getAddress()));
        assertFalse(block.contains(
                InetAddress.getByName("::ffff:a01:c807").getAddress().length == 4
                        ? new byte[16]
                        : InetAddress.getByName("::a01:c807").getAddress()));
        assertTrue(CidrBlock.parse("0.0.0.0/0")
                .contains(InetAddress.getByName("192.0.2.1").getAddress()));
    }

    @Test
    void readsAnyAddressAsJavaWritesIt() throws Exception {
        Random random = new Random(37);
        for (int i = 0; i < 10_000; i++) {
            byte[] bytes = new byte[i % 2 == 0 ? 4 : 16];
            random.nextBytes(bytes);
            if (bytes.length == 16 && random.nextBoolean()) {
                // Runs of zero groups, which the canonical form compresses.
                for (int at = random.nextInt(16), n = random.nextInt(16 - at + 1); n > 0; n--) {
                    bytes[at + n - 1] = 0;
                }
            }
            InetAddress address = InetAddress.getByAddress(bytes);
            CidrBlock block = CidrBlock.parse(address.getHostAddress());
            assertEquals(CidrBlock.of(address), block);
            assertArrayEquals(
                    bytes,
                    InetAddress.getByName(block.toString().replaceAll("/.*", ""))
                            .getAddress());
            int prefix = random.nextInt(bytes.length * 8 + 1);
            CidrBlock masked = CidrBlock.of(bytes, prefix);
            assertTrue(masked.contains(bytes));
            CidrBlockFuzzTest.roundTrips(masked);
        }
    }

    @Test
    void mutatedTextParsesOrIsRefused() {
        String[] fragments = {"1", "0", "255", "256", ".", ":", "::", "/", "32", "128", "ffff", "g", "-", " ", "0x1"};
        Random random = new Random(612);
        for (int i = 0; i < 50_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                text.append(fragments[random.nextInt(fragments.length)]);
            }
            parsesOrIsRefused(text.toString());
        }
    }

    static void parsesOrIsRefused(String text) {
        CidrBlock block;
        try {
            block = CidrBlock.parse(text);
        } catch (InvalidSettingsException refused) {
            return;
        }
        CidrBlockFuzzTest.roundTrips(block);
    }
}
