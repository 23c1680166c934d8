package io.sluice.pulsar.proxy;

/** One producer of a client connection, as the proxy sees it. Confined to the connection's event loop. */
final class ProducerState {

    final long producerId;
    final String topic;

    ProducerState(long producerId, String topic) {
        this.producerId = producerId;
        this.topic = topic;
    }
}
