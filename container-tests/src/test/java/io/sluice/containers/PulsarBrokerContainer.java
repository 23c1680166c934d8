package io.sluice.containers;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

import java.time.Duration;

/** The broker of {@link PulsarBrokerImage} on a network, where it answers as {@link #serviceUrlOnNetwork()}. */
final class PulsarBrokerContainer extends GenericContainer<PulsarBrokerContainer> {

    PulsarBrokerContainer(Network network) {
        super(DockerImageName.parse(PulsarBrokerImage.ensure()));
        withNetwork(network);
        withNetworkAliases(PulsarBrokerImage.host());
        withExposedPorts(PulsarBrokerImage.webPort());
        // Usable once the standalone has created its default namespace, not when a port opens.
        waitingFor(Wait.forHttp("/admin/v2/namespaces/public")
                .forPort(PulsarBrokerImage.webPort())
                .forStatusCode(200)
                .forResponsePredicate(body -> body.contains("\"public/default\""))
                .withStartupTimeout(Duration.ofMinutes(3)));
    }

    /** The broker's service URL for containers on its network, e.g. Sluice's upstream. */
    String serviceUrlOnNetwork() {
        return "pulsar://" + PulsarBrokerImage.host() + ":" + PulsarBrokerImage.brokerPort();
    }
}
