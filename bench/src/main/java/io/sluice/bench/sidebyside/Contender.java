package io.sluice.bench.sidebyside;

/**
 * One way for a client to reach the broker: directly, or through a proxy process.
 *
 * @param name       as shown in tables and charts
 * @param serviceUrl what the client connects to
 * @param proxyPid   the proxy process whose CPU and memory are measured, or -1 for none
 */
record Contender(String name, String serviceUrl, long proxyPid) {

    static Contender direct(String brokerUrl) {
        return new Contender("direct", brokerUrl, -1);
    }

    boolean hasProxy() {
        return proxyPid > 0;
    }

    /** The same contender under another name. */
    Contender renamed(String newName) {
        return new Contender(newName, serviceUrl, proxyPid);
    }
}
