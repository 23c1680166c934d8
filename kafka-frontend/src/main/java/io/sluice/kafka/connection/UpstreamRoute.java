package io.sluice.kafka.connection;

import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.UpstreamNodes;
import io.sluice.relay.connection.UpstreamTargets;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Where the connections accepted on one of Sluice's Kafka ports go: the bootstrap port to any of
 * the bootstrap servers, a node's port to that node. Asked once per connection, when its first
 * request is forwarded (the relay tries the addresses in turn); thread-safe.
 */
public final class UpstreamRoute implements UpstreamTargets {

    private final String description;
    private final Supplier<List<BrokerEndpoint>> endpoints;

    private UpstreamRoute(String description, Supplier<List<BrokerEndpoint>> endpoints) {
        this.description = description;
        this.endpoints = endpoints;
    }

    /**
     * The bootstrap servers, every one in turn: each connection starts with the next server and
     * falls back to the others, so connections spread over them and a server that is down is passed over.
     */
    public static UpstreamRoute bootstrap(List<BrokerEndpoint> servers) {
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("at least one bootstrap server is needed");
        }
        List<BrokerEndpoint> copy = List.copyOf(servers);
        AtomicInteger next = new AtomicInteger();
        return new UpstreamRoute("bootstrap servers " + copy, () -> {
            int first = Math.floorMod(next.getAndIncrement(), copy.size());
            List<BrokerEndpoint> inTurn = new ArrayList<>(copy.size());
            for (int i = 0; i < copy.size(); i++) {
                inTurn.add(copy.get((first + i) % copy.size()));
            }
            return inTurn;
        });
    }

    /** Node {@code nodeId} at the address last learnt for it; none while it is unknown. */
    public static UpstreamRoute node(int nodeId, UpstreamNodes nodes) {
        return new UpstreamRoute("node " + nodeId, () -> {
            BrokerEndpoint endpoint = nodes.endpoint(nodeId);
            return endpoint == null ? List.of() : List.of(endpoint);
        });
    }

    /** The addresses to try, in order; empty when none is known. */
    List<BrokerEndpoint> endpoints() {
        return endpoints.get();
    }

    @Override
    public List<InetSocketAddress> addresses() {
        List<BrokerEndpoint> inTurn = endpoints();
        List<InetSocketAddress> addresses = new ArrayList<>(inTurn.size());
        for (BrokerEndpoint endpoint : inTurn) {
            addresses.add(InetSocketAddress.createUnresolved(endpoint.host(), endpoint.port()));
        }
        return addresses;
    }

    @Override
    public String toString() {
        return description;
    }
}
