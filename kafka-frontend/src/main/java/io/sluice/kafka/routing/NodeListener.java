package io.sluice.kafka.routing;

/**
 * Told of every broker a rewritten response names, with the broker's own address, so that the
 * connection layer can open the node's port on Sluice the first time a node appears (and follow a
 * node whose address changed). Called on an event loop for every occurrence: keep it cheap.
 */
@FunctionalInterface
public interface NodeListener {

    void nodeSeen(int nodeId, String upstreamHost, int upstreamPort);
}
