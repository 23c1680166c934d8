package io.sluice.server.it;

import io.sluice.testing.ProxyHeaders;
import org.junit.jupiter.api.Test;

import java.net.Socket;
import java.util.function.Function;

import static io.netty.handler.codec.haproxy.HAProxyProtocolVersion.V1;
import static io.netty.handler.codec.haproxy.HAProxyProtocolVersion.V2;

/**
 * What a front end behind a load balancer writing the PROXY protocol header must show, Sluice
 * running with {@code --proxy-protocol optional}: the address a v1 or a v2 header names is the
 * one {@code /api/v1/throttled} shows, and a client without one keeps its socket's.
 */
public interface ProxyProtocolContract {

    /**
     * A stock client whose connections pass a relay that writes {@code header(client socket)}
     * (nothing when it gives null) sends faster than its topic's limit: while it is held,
     * {@code /api/v1/throttled} names its connection by {@code address}.
     */
    void assertThrottledAs(Function<Socket, byte[]> header, String address) throws Exception;

    @Test
    default void aV1HeadersClientIsTheOneThrottled() throws Exception {
        assertThrottledAs(
                client -> ProxyHeaders.header(V1, "203.0.113.7", client.getPort(), client.getLocalPort()),
                "/203.0.113.7:");
    }

    @Test
    default void aV2HeadersClientIsTheOneThrottled() throws Exception {
        assertThrottledAs(
                client -> ProxyHeaders.header(V2, "2001:db8::7", client.getPort(), client.getLocalPort()),
                "/[2001:db8:0:0:0:0:0:7]:");
    }

    @Test
    default void withoutAHeaderTheSocketsPeerIsTheClient() throws Exception {
        assertThrottledAs(client -> null, "/127.0.0.1:");
    }
}
