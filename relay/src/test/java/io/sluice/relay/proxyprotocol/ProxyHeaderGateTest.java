package io.sluice.relay.proxyprotocol;

import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ProxyHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static io.netty.handler.codec.haproxy.HAProxyProtocolVersion.V1;
import static io.netty.handler.codec.haproxy.HAProxyProtocolVersion.V2;
import static io.sluice.relay.proxyprotocol.ProxiedClient.concat;
import static io.sluice.relay.proxyprotocol.ProxiedClient.header;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(LeakCheck.class)
class ProxyHeaderGateTest {

    private static final byte[] FRAME = "\0\0\0\4ping".getBytes(StandardCharsets.ISO_8859_1);
    private static final InetSocketAddress SOCKET = new InetSocketAddress("127.0.0.1", 40000);

    private static ProxyProtocol mode(ProxyProtocol.Mode mode) {
        return new ProxyProtocol(mode, TrustedPeers.LOOPBACK);
    }

    @Test
    void aV1HeaderNamesTheClientAndTheBytesAfterItGoOnWhole() throws Exception {
        ProxiedClient client =
                new ProxiedClient(mode(ProxyProtocol.Mode.V1)).read(concat(header(V1, "203.0.113.7", 51000), FRAME));
        assertEquals(new InetSocketAddress("203.0.113.7", 51000), client.opened);
        assertArrayEquals(FRAME, client.bytes.toByteArray());
        assertEquals(1, client.channel.pipeline().names().size() - 1, "only the handler after the gate is left");
        client.channel.finishAndReleaseAll();
    }

    @Test
    void aV2HeaderOfAnIpv6ClientSplitIntoSingleBytes() throws Exception {
        ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.V2));
        for (byte b : header(V2, "2001:db8::7", 443)) {
            assertNull(client.opened, "opened before the header was whole");
            client.read(new byte[] {b});
        }
        for (byte b : FRAME) {
            client.read(new byte[] {b});
        }
        assertEquals(new InetSocketAddress("2001:db8::7", 443), client.opened);
        assertArrayEquals(FRAME, client.bytes.toByteArray());
        client.channel.finishAndReleaseAll();
    }

    @Test
    void aHeaderFromAPeerOutsideTheTrustedBlocksIsRefused() throws Exception {
        ProxiedClient client = new ProxiedClient(
                        new ProxyProtocol(ProxyProtocol.Mode.OPTIONAL, TrustedPeers.parse("10.0.0.0/8")))
                .read(concat(header(V1, "203.0.113.7", 51000), FRAME));
        assertFalse(client.channel.isOpen());
        assertNull(client.opened, "the connection never opened");
        assertEquals(0, client.bytes.size());
        assertEquals(1, client.refused(ProxyHeaderGate.UNTRUSTED));
    }

    @Test
    void aRequiredHeaderThatDoesNotComeClosesTheConnection() throws Exception {
        ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.V2)).read(FRAME);
        assertFalse(client.channel.isOpen());
        assertNull(client.opened);
        assertEquals(1, client.refused(ProxyHeaderGate.MISSING));
    }

    @Test
    void aHeaderOfTheOtherVersionThanRequiredIsRefused() throws Exception {
        ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.V1)).read(header(V2, "203.0.113.7", 1));
        assertFalse(client.channel.isOpen());
        assertEquals(1, client.refused(ProxyHeaderGate.MISSING));
    }

    @Test
    void optionalTakesAConnectionWithoutAHeaderAsItIs() throws Exception {
        ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.OPTIONAL)).read(FRAME);
        assertEquals(SOCKET, client.opened);
        assertArrayEquals(FRAME, client.bytes.toByteArray());
        client.channel.finishAndReleaseAll();
    }

    @Test
    void optionalTakesAHeaderOfEitherVersion() throws Exception {
        for (HAProxyProtocolVersion version : HAProxyProtocolVersion.values()) {
            ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.OPTIONAL))
                    .read(concat(header(version, "198.51.100.1", 7), FRAME));
            assertEquals(new InetSocketAddress("198.51.100.1", 7), client.opened, version.name());
            assertArrayEquals(FRAME, client.bytes.toByteArray());
            client.channel.finishAndReleaseAll();
        }
    }

    @Test
    void aMalformedHeaderClosesTheConnection() throws Exception {
        ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.V1))
                .read("PROXY TCP4 not-an-address 127.0.0.1 1 2\r\n".getBytes(StandardCharsets.US_ASCII));
        assertFalse(client.channel.isOpen());
        assertNull(client.opened);
        assertEquals(1, client.refused(ProxyHeaderGate.INVALID));
    }

    @Test
    void aV1HeaderWithoutItsLineEndIsBoundedInSize() throws Exception {
        byte[] endless = new byte[200];
        java.util.Arrays.fill(endless, (byte) '1');
        System.arraycopy("PROXY ".getBytes(StandardCharsets.US_ASCII), 0, endless, 0, 6);
        ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.V1)).read(endless);
        assertFalse(client.channel.isOpen());
        assertEquals(1, client.refused(ProxyHeaderGate.INVALID));
    }

    @Test
    void aLoadBalancersHealthCheckKeepsTheSocketsAddress() throws Exception {
        byte[] local = ProxyHeaders.encode(
                new HAProxyMessage(V2, HAProxyCommand.LOCAL, HAProxyProxiedProtocol.UNKNOWN, null, null, 0, 0));
        ProxiedClient client = new ProxiedClient(mode(ProxyProtocol.Mode.V2)).read(concat(local, FRAME));
        assertEquals(SOCKET, client.opened);
        assertArrayEquals(FRAME, client.bytes.toByteArray());
        client.channel.finishAndReleaseAll();
    }

    @Test
    void offAddsNothing() {
        assertNull(ProxyProtocol.OFF.newHeaderGate("Pulsar connection", new io.sluice.relay.ProxyStats("pulsar")));
    }

    @Test
    void trustedPeersAreCidrBlocksOfLiteralAddresses() {
        TrustedPeers peers = TrustedPeers.parse("10.0.0.0/8, 192.168.1.5,fd00::/8");
        assertTrue(peers.trusts(new InetSocketAddress("10.200.0.1", 1)));
        assertTrue(peers.trusts(new InetSocketAddress("192.168.1.5", 1)));
        assertFalse(peers.trusts(new InetSocketAddress("192.168.1.6", 1)));
        assertTrue(peers.trusts(new InetSocketAddress("fd12::1", 1)));
        assertFalse(peers.trusts(new InetSocketAddress("127.0.0.1", 1)));
        assertTrue(TrustedPeers.LOOPBACK.trusts(new InetSocketAddress("::1", 1)));
        for (String bad : new String[] {"", "lb.example.com/32", "10.0.0.0/33", "10.0.0.0/x", "fd00::/129"}) {
            assertThrows(IllegalArgumentException.class, () -> TrustedPeers.parse(bad), bad);
        }
        assertEquals(ProxyProtocol.Mode.OPTIONAL, ProxyProtocol.Mode.parse("Optional"));
        assertThrows(IllegalArgumentException.class, () -> ProxyProtocol.Mode.parse("v3"));
    }
}
