package io.sluice.containers;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;

/**
 * What every test of this JVM shares: one network, and the brokers on it, each started on first
 * use and removed when the JVM exits (Ryuk, Testcontainers' reaper, is off: it is an image to pull).
 */
final class SharedContainers {

    private static Network network;
    private static PulsarBrokerContainer pulsar;
    private static KafkaBrokerContainer kafka;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(SharedContainers::removeAll, "container-tests-cleanup"));
    }

    private SharedContainers() {}

    /** The network Sluice's containers and the brokers share. */
    static synchronized Network network() {
        if (network == null) {
            Docker.connectTestcontainers();
            network = Network.newNetwork();
        }
        return network;
    }

    /** The Pulsar broker, started (about 20 s) on first use. */
    static synchronized PulsarBrokerContainer pulsarBroker() {
        if (pulsar == null) {
            pulsar = start(new PulsarBrokerContainer(network()), "Pulsar broker");
        }
        return pulsar;
    }

    /** The single-node Kafka, started (a few seconds) on first use. */
    static synchronized KafkaBrokerContainer kafkaBroker() {
        if (kafka == null) {
            kafka = start(new KafkaBrokerContainer(network()), "Kafka broker");
        }
        return kafka;
    }

    private static <C extends GenericContainer<C>> C start(C broker, String name) {
        long start = System.nanoTime();
        try {
            broker.start();
        } catch (RuntimeException e) {
            String logs = broker.getContainerId() == null ? "" : broker.getLogs();
            broker.stop();
            throw new IllegalStateException("the " + name + " container did not start; its log:\n" + logs, e);
        }
        System.out.printf("container-tests: %s ready in %.1f s%n", name, (System.nanoTime() - start) / 1e9);
        return broker;
    }

    private static synchronized void removeAll() {
        if (pulsar != null) {
            pulsar.stop();
        }
        if (kafka != null) {
            kafka.stop();
        }
        if (network != null) {
            network.close();
        }
    }
}
