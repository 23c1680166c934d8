package io.sluice.pulsar.proxy;

/**
 * Records events on a {@link ProxyStats} from tests; its recording methods are package-private
 * because only the proxy's handlers may count. Lives in the core's package for that reason.
 */
public final class ProxyStatsEvents {

    private ProxyStatsEvents() {
    }

    public static void connectionOpened(ProxyStats stats) {
        stats.connectionOpened();
    }

    public static void upstreamConnectFailed(ProxyStats stats) {
        stats.upstreamConnectFailed();
    }

    public static void protocolError(ProxyStats stats, String reason) {
        stats.protocolError(reason);
    }
}
