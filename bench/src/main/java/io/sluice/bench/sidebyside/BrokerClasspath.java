package io.sluice.bench.sidebyside;

import io.sluice.testbroker.PulsarBroker;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Pulsar 4.0.7 broker's runtime classpath, which the test-broker build writes next to
 * {@link PulsarBroker}: what Apache Pulsar's proxy and pulsar-perf run on, in JVMs of their own.
 */
final class BrokerClasspath {

    private BrokerClasspath() {
    }

    static String read() {
        try (InputStream in = PulsarBroker.class.getResourceAsStream("broker.classpath")) {
            if (in == null) {
                throw new IllegalStateException("broker.classpath is missing from test-broker; rebuild it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
