package io.sluice.containers;

import org.testcontainers.containers.Network;

/**
 * What every test of this JVM shares: one network, and the brokers on it, each started on first
 * use and removed when the JVM exits (Ryuk, Testcontainers' reaper, is off: it is an image to pull).
 */
final class SharedContainers {

    private static Network network;
    private static PulsarBrokerContainer pulsar;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(SharedContainers::removeAll, "container-tests-cleanup"));
    }

    private SharedContainers() {
    }

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
            PulsarBrokerContainer broker = new PulsarBrokerContainer(network());
            long start = System.nanoTime();
            try {
                broker.start();
            } catch (RuntimeException e) {
                String logs = broker.getContainerId() == null ? "" : broker.getLogs();
                broker.stop();
                throw new IllegalStateException("the Pulsar broker container did not start; its log:\n" + logs, e);
            }
            System.out.printf("container-tests: Pulsar broker ready in %.1f s%n", (System.nanoTime() - start) / 1e9);
            pulsar = broker;
        }
        return pulsar;
    }

    private static synchronized void removeAll() {
        if (pulsar != null) {
            pulsar.stop();
        }
        if (network != null) {
            network.close();
        }
    }
}
