package io.sluice.containers;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

import java.time.Duration;

/**
 * The single-node Kafka of {@link KafkaBrokerImage} on a network, where it answers as
 * {@link #bootstrapOnNetwork()}. No port is published: the host reaches it only through Sluice.
 */
final class KafkaBrokerContainer extends GenericContainer<KafkaBrokerContainer> {

    KafkaBrokerContainer(Network network) {
        super(DockerImageName.parse(KafkaBrokerImage.ensure()));
        withNetwork(network);
        withNetworkAliases(KafkaBrokerImage.host());
        // KafkaRaftServer logs this once the broker is registered and unfenced (its one INFO line).
        waitingFor(Wait.forLogMessage(".*Kafka Server started.*\\n", 1).withStartupTimeout(Duration.ofMinutes(2)));
    }

    /** The broker's bootstrap address for containers on its network, e.g. Sluice's Kafka upstream. */
    String bootstrapOnNetwork() {
        return KafkaBrokerImage.host() + ":" + KafkaBrokerImage.port();
    }
}
