package io.sluice.kafka.routing;

import io.sluice.relay.MalformedFrameException;

import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The address Sluice gives clients for each broker: its own advertised host, and one port per node,
 * {@code nodePortBase + nodeId}, so that the port a client connects to says which broker it means.
 */
public final class AdvertisedNodes {

    private final String host;
    private final int nodePortBase;
    private final NodeListener listener;

    public AdvertisedNodes(String host, int nodePortBase, NodeListener listener) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("an advertised host is required");
        }
        if (nodePortBase < 1 || nodePortBase > 65535) {
            throw new IllegalArgumentException("node port base " + nodePortBase + " is not a port");
        }
        this.host = host;
        this.nodePortBase = nodePortBase;
        this.listener = listener;
    }

    public String host() {
        return host;
    }

    /**
     * The port to advertise for node {@code nodeId}, whose own address is {@code upstreamHost:upstreamPort},
     * after telling the listener of it; -1 for a negative id, which names no node (no coordinator,
     * no leader) and is left as the broker wrote it. A node whose port would pass 65535 cannot be
     * routed: that raises a {@link MalformedFrameException} ({@code node_port_out_of_range}) rather
     * than let clients go around Sluice.
     */
    public int advertise(int nodeId, String upstreamHost, int upstreamPort) {
        if (nodeId < 0) {
            return -1;
        }
        long port = (long) nodePortBase + nodeId;
        if (port > 65535) {
            throw new MalformedFrameException(
                    "node_port_out_of_range",
                    "node " + nodeId + " would need port " + port + " (node port base " + nodePortBase + ")");
        }
        listener.nodeSeen(nodeId, upstreamHost, upstreamPort);
        return (int) port;
    }

    /**
     * Puts Sluice's address in place of each broker address among {@code entries} (the brokers or
     * endpoints of one response, as kafka-clients' classes hold them); whether any changed.
     */
    public <E> boolean rewrite(
            Iterable<E> entries,
            ToIntFunction<E> nodeId,
            Function<E, String> upstreamHost,
            ToIntFunction<E> upstreamPort,
            AddressSetter<E> setter) {
        boolean changed = false;
        for (E entry : entries) {
            int port = advertise(nodeId.applyAsInt(entry), upstreamHost.apply(entry), upstreamPort.applyAsInt(entry));
            if (port >= 0) {
                setter.set(entry, host, port);
                changed = true;
            }
        }
        return changed;
    }

    /** Sets the address of one broker entry of a response. */
    @FunctionalInterface
    public interface AddressSetter<E> {
        void set(E entry, String host, int port);
    }
}
