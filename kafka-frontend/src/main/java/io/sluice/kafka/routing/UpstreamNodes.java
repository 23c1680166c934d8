package io.sluice.kafka.routing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;

/**
 * The brokers of the upstream cluster by node id, with each one's own address, learnt from the
 * responses Sluice rewrites (and from its own metadata requests): what a client connection on a
 * node's port is forwarded to. The first time a node id appears, {@code newNode} is told, so that
 * the node's port can be opened; a node whose address changes is followed by new connections.
 *
 * <p>Thread-safe: every event loop reports nodes; a node already known at the same address costs
 * one map lookup.
 */
public final class UpstreamNodes implements NodeListener {

    private static final Logger log = LoggerFactory.getLogger(UpstreamNodes.class);

    private final Map<Integer, BrokerEndpoint> nodes = new ConcurrentHashMap<>();
    private final IntConsumer newNode;

    /** @param newNode called once per node id, on the thread that saw it first; must not block */
    public UpstreamNodes(IntConsumer newNode) {
        this.newNode = newNode;
    }

    @Override
    public void nodeSeen(int nodeId, String upstreamHost, int upstreamPort) {
        BrokerEndpoint known = nodes.get(nodeId);
        if (known != null && known.port() == upstreamPort && known.host().equals(upstreamHost)) {
            return;
        }
        BrokerEndpoint endpoint = new BrokerEndpoint(upstreamHost, upstreamPort);
        BrokerEndpoint before = nodes.put(nodeId, endpoint);
        if (before == null) {
            log.info("Kafka node {} is at {}", nodeId, endpoint);
            newNode.accept(nodeId);
        } else if (!before.equals(endpoint)) {
            log.info("Kafka node {} moved from {} to {}", nodeId, before, endpoint);
        }
    }

    /** The address of node {@code nodeId}, or null when no response has named it yet. */
    public BrokerEndpoint endpoint(int nodeId) {
        return nodes.get(nodeId);
    }

    /** Every node known now, by id. */
    public Map<Integer, BrokerEndpoint> known() {
        return new TreeMap<>(nodes);
    }
}
