package io.sluice.bench.sidebyside;

import java.util.concurrent.TimeUnit;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;

/** How the suite's runs open and drop their own Pulsar client, so that every run pays the same. */
final class PulsarClients {

    private PulsarClients() {
    }

    static PulsarClient connect(String serviceUrl) throws PulsarClientException {
        return PulsarClient.builder().serviceUrl(serviceUrl).operationTimeout(30, TimeUnit.SECONDS).build();
    }

    /**
     * Closes {@code client}, its producers and consumers, without waiting: the close ends with
     * Netty's graceful shutdown of the client's threads, which idles 2 s before it completes, and a
     * suite of hundreds of runs would spend minutes waiting for it.
     */
    static void closeInBackground(PulsarClient client) {
        client.closeAsync();
    }
}
