package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.api.ClientBuilder;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.PulsarClientException;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** How the suite's runs open and drop their own Pulsar client, so that every run pays the same. */
final class PulsarClients {

    private PulsarClients() {}

    /** The CA that {@code pulsar+ssl://} service URLs are checked against, hostnames included; null until set. */
    private static volatile Path trustedCa;

    /** Clients of {@code pulsar+ssl://} URLs from now on trust {@code caFile} (PEM) and verify hostnames. */
    static void trust(Path caFile) {
        trustedCa = caFile;
    }

    static PulsarClient connect(String serviceUrl) throws PulsarClientException {
        ClientBuilder builder = PulsarClient.builder().serviceUrl(serviceUrl).operationTimeout(30, TimeUnit.SECONDS);
        if (serviceUrl.startsWith("pulsar+ssl://") && trustedCa != null) {
            builder.tlsTrustCertsFilePath(trustedCa.toString()).enableTlsHostnameVerification(true);
        }
        return builder.build();
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
