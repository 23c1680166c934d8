package io.sluice.pulsar.proxy;

/** One consumer of a client connection, as the proxy sees it. Confined to the connection's event loop. */
final class ConsumerState {

    final long consumerId;
    final String topic;

    ConsumerState(long consumerId, String topic) {
        this.consumerId = consumerId;
        this.topic = topic;
    }
}
