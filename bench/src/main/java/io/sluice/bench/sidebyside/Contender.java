package io.sluice.bench.sidebyside;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One way for a client to reach the broker: directly, or through a proxy process.
 *
 * @param name           as shown in tables and charts
 * @param serviceUrl     what the client connects to
 * @param proxyPid       the proxy process whose CPU and memory are measured, or -1 for none
 * @param clientSettings what a Kafka client needs besides the address to reach it, such as
 *                       {@code security.protocol} and its trust store; empty for plaintext
 */
record Contender(String name, String serviceUrl, long proxyPid, Map<String, String> clientSettings) {

    Contender {
        clientSettings = Map.copyOf(clientSettings);
    }

    Contender(String name, String serviceUrl, long proxyPid) {
        this(name, serviceUrl, proxyPid, Map.of());
    }

    static Contender direct(String brokerUrl) {
        return new Contender("direct", brokerUrl, -1);
    }

    boolean hasProxy() {
        return proxyPid > 0;
    }

    /** The same contender under another name. */
    Contender renamed(String newName) {
        return new Contender(newName, serviceUrl, proxyPid, clientSettings);
    }

    /** The same contender, reached with {@code settings} added to a Kafka client's configuration. */
    Contender withClientSettings(Map<String, String> settings) {
        return new Contender(name, serviceUrl, proxyPid, settings);
    }

    /**
     * The order in which {@code contenders} run in round {@code round} (from 0): the direct one, if
     * any, first, then the proxies rotated by one a round, so that no proxy always runs right after
     * the direct run or right after another proxy (an A/B of two jars alternates A,B and B,A).
     */
    static List<Contender> inOrderOfRound(List<Contender> contenders, int round) {
        List<Contender> order = new ArrayList<>(contenders.size());
        List<Contender> proxies = new ArrayList<>(contenders.size());
        for (Contender contender : contenders) {
            (contender.hasProxy() ? proxies : order).add(contender);
        }
        for (int i = 0; i < proxies.size(); i++) {
            order.add(proxies.get((i + round) % proxies.size()));
        }
        return order;
    }
}
