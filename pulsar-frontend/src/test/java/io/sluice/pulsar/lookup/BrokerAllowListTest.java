package io.sluice.pulsar.lookup;

import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import org.junit.jupiter.api.Test;

import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class BrokerAllowListTest {

    @Test
    void byDefaultOnlyTheUpstreamItselfIsAllowed() {
        BrokerAllowList list = BrokerAllowList.only(BrokerAddress.parse("pulsar://10.0.0.1:6650"));
        assertEquals(new BrokerAddress("10.0.0.1", 6650), list.resolve("pulsar://10.0.0.1:6650"));
        assertNull(list.resolve("pulsar://10.0.0.1:6651"));
        assertNull(list.resolve("pulsar://10.0.0.11:6650"), "dots are literal, not regex wildcards");
        assertNull(list.resolve("pulsar://10x0x0x1:6650"));
    }

    @Test
    void theJavaClientsBareHostAndPortFormIsUnderstood() {
        BrokerAllowList list = BrokerAllowList.only(BrokerAddress.parse("pulsar://10.0.0.1:6650"));
        assertEquals(new BrokerAddress("10.0.0.1", 6650), list.resolve("10.0.0.1:6650"));
        assertNull(list.resolve("10.0.0.2:6650"));
    }

    @Test
    void theTlsSchemeNamesTheSameHostAndPort() {
        BrokerAllowList list = BrokerAllowList.only(BrokerAddress.parse("pulsar+ssl://10.0.0.1:6651"));
        assertEquals(new BrokerAddress("10.0.0.1", 6651), list.resolve("pulsar+ssl://10.0.0.1:6651"));
        assertEquals(new BrokerAddress("10.0.0.1", 6651), list.resolve("10.0.0.1:6651"));
        assertNull(list.resolve("pulsar+ssl://10.0.0.1:6650"));
    }

    @Test
    void aPatternMustMatchTheWholeHostAndPort() {
        BrokerAllowList list = new BrokerAllowList(Pattern.compile("broker-\\d+\\.pulsar\\.svc:6650"));
        assertEquals(
                "broker-3.pulsar.svc",
                list.resolve("pulsar://broker-3.pulsar.svc:6650").host());
        assertNull(list.resolve("pulsar://evil.com:6650"));
        assertNull(list.resolve("pulsar://broker-3.pulsar.svc:6650.evil.com:1"));
    }

    @Test
    void malformedUrlsAreNeverAllowed() {
        BrokerAllowList any = new BrokerAllowList(Pattern.compile(".*"));
        assertNull(any.resolve("http://broker:6650"));
        assertNull(any.resolve("pulsar+tls://broker:6651"));
        assertNull(any.resolve("pulsar://broker"));
        assertNull(any.resolve("pulsar://broker:6650/path"));
        assertNull(any.resolve("not a url"));
        assertNull(any.resolve(null));
        assertThrows(IllegalArgumentException.class, () -> BrokerAddress.parse("pulsar://:1"));
    }
}
