package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code ips} scopes of a limits document: names, the parts they take, and which one an address falls under. */
class AddressScopesTest {

    private static LimitsDocument parse(String json) {
        return LimitsJson.parseDocument(json.getBytes(StandardCharsets.UTF_8), TestScopes.CATALOGUE);
    }

    private static ScopeRef scopeOf(AddressScopes scopes, String address) throws Exception {
        return scopes.scopeOf(InetAddress.getByName(address));
    }

    @Test
    void theLongestPrefixWinsThenEachAddressApart() throws Exception {
        AddressScopes scopes = AddressScopes.of(parse("""
                {"ips": {
                  "10.0.0.0/8": {"connections": {"perSecond": 100}},
                  "10.1.0.0/16": {"connections": {"perSecond": 10}},
                  "10.1.2.3": {"connections": {"perSecond": 1}},
                  "2001:db8::/32": {"connections": {"perSecond": 5}},
                  "*": {"connections": {"perSecond": 2, "burstSeconds": 3}}}}"""));
        assertEquals(new ScopeRef(ScopeKind.IPS, "10.1.2.3/32"), scopeOf(scopes, "10.1.2.3"));
        assertEquals(new ScopeRef(ScopeKind.IPS, "10.1.0.0/16"), scopeOf(scopes, "10.1.2.4"));
        assertEquals(new ScopeRef(ScopeKind.IPS, "10.0.0.0/8"), scopeOf(scopes, "10.2.0.1"));
        assertEquals(new ScopeRef(ScopeKind.IPS, "2001:db8::/32"), scopeOf(scopes, "2001:db8:1::7"));
        assertEquals(new ScopeRef(ScopeKind.IPS, "192.0.2.1/32"), scopeOf(scopes, "192.0.2.1"), "a bucket per address");
        assertEquals(new ScopeRef(ScopeKind.IPS, "2001:db9::1/128"), scopeOf(scopes, "2001:db9::1"));
    }

    @Test
    void withoutADefaultAnAddressNoBlockHoldsIsUnlimited() throws Exception {
        AddressScopes scopes =
                AddressScopes.of(parse("{\"ips\": {\"10.0.0.0/8\": {\"connections\": {\"perSecond\": 1}}}}"));
        assertNull(scopeOf(scopes, "11.0.0.1"));
        assertNull(scopeOf(scopes, "::1"));
        assertTrue(AddressScopes.of(LimitsDocument.empty()).isEmpty());
    }

    @Test
    void namesAreKeptCanonicalAndTwoNamesOfOneBlockAreRefused() {
        LimitsDocument doc = parse("{\"ips\": {\"10.1.2.3/16\": {}, \"2001:DB8:0::/32\": {}}}");
        assertEquals(
                java.util.List.of("10.1.0.0/16", "2001:db8::/32"),
                java.util.List.copyOf(doc.limitsOf(ScopeKind.IPS).keySet()));
        InvalidSettingsException twice = assertThrows(
                InvalidSettingsException.class, () -> parse("{\"ips\": {\"10.1.0.0/16\": {}, \"10.1.9.9/16\": {}}}"));
        assertEquals("ips[\"10.1.9.9/16\"]", twice.path());
        assertEquals(
                "10.1.0.0/16",
                doc.withLimit(new ScopeRef(ScopeKind.IPS, "10.1.7.7/16"), Limit.NONE)
                        .limitsOf(ScopeKind.IPS)
                        .firstKey());
    }

    @Test
    void aBadBlockIsRefusedNamingIt() {
        InvalidSettingsException bad =
                assertThrows(InvalidSettingsException.class, () -> parse("{\"ips\": {\"10.1.0.0/33\": {}}}"));
        assertEquals("ips[\"10.1.0.0/33\"]", bad.path());
        assertTrue(bad.problem().contains("\"10.1.0.0/33\""), bad.problem());
        assertThrows(InvalidSettingsException.class, () -> parse("{\"ips\": {\"example.com\": {}}}"));
    }

    @Test
    void aPartAScopeDoesNotTakeIsRefusedNamingTheScopesThatTakeIt() {
        InvalidSettingsException topic = assertThrows(
                InvalidSettingsException.class,
                () -> parse("{\"topics\": {\"t/n/x\": {\"connections\": {\"perSecond\": 1}}}}"));
        assertEquals("topics[\"t/n/x\"].connections", topic.path());
        assertEquals("topics limits do not take it; it is a limit of ips only", topic.problem());
        InvalidSettingsException ip = assertThrows(
                InvalidSettingsException.class,
                () -> parse("{\"ips\": {\"*\": {\"publish\": {\"messagesPerSecond\": 1}}}}"));
        assertEquals("ips[\"*\"].publish", ip.path());
        assertTrue(
                ip.problem().startsWith("ips limits do not take it; it is a limit of topics, namespaces"),
                ip.problem());
    }

    @Test
    void aConnectionRateIsCheckedAsAnyRate() {
        InvalidSettingsException zero = assertThrows(
                InvalidSettingsException.class,
                () -> parse("{\"ips\": {\"*\": {\"connections\": {\"perSecond\": 0}}}}"));
        assertEquals("ips[\"*\"].connections.perSecond", zero.path());
        InvalidSettingsException burst = assertThrows(
                InvalidSettingsException.class,
                () -> parse("{\"ips\": {\"*\": {\"connections\": {\"perSecond\": 1, \"burstSeconds\": 61}}}}"));
        assertEquals("ips[\"*\"].connections.burstSeconds", burst.path());
        assertEquals(
                new EventRate(10.0, 1.0),
                parse("{\"ips\": {\"*\": {\"connections\": {\"perSecond\": 10}}}}")
                        .limitsOf(ScopeKind.IPS)
                        .get("*")
                        .connections());
    }

    @Test
    void anAddressTakesARateOfRequestsWhichScopesThatDoNotTakeItRefuse() {
        Limit limit = parse("{\"ips\": {\"*\": {\"requests\": {\"perSecond\": 100, \"burstSeconds\": 2}}}}")
                .limitsOf(ScopeKind.IPS)
                .get("*");
        assertEquals(new EventRate(100.0, 2.0), limit.requests());
        String written = new String(LimitsJson.write(limit), StandardCharsets.UTF_8).replaceAll("\\s", "");
        assertTrue(written.contains("\"requests\":{\"perSecond\":100.0,\"burstSeconds\":2.0}"), written);
        InvalidSettingsException topic = assertThrows(
                InvalidSettingsException.class,
                () -> parse("{\"topics\": {\"t/n/x\": {\"requests\": {\"perSecond\": 1}}}}"));
        assertEquals("topics[\"t/n/x\"].requests", topic.path());
        assertEquals("topics limits do not take it; it is a limit of ips, proxy only", topic.problem());
    }
}
