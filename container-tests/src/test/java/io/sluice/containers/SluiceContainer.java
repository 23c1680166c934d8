package io.sluice.containers;

import com.github.dockerjava.api.command.WaitContainerResultCallback;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A container of Sluice's image ({@link SluiceImage}) on the test network, configured as the Helm
 * chart configures it: by {@code SLUICE_*} environment variables, with the image's entrypoint.
 */
final class SluiceContainer extends GenericContainer<SluiceContainer> {

    static final int PULSAR_PORT = 6650;
    static final int ADMIN_PORT = 8080;

    SluiceContainer(Network network, String upstream) {
        super(DockerImageName.parse(SluiceImage.ensure()));
        withNetwork(network);
        withEnv("SLUICE_UPSTREAM", upstream);
        withExposedPorts(PULSAR_PORT, ADMIN_PORT);
        waitingFor(probe("/healthz"));
    }

    /**
     * Makes {@link #start()} wait for {@code /readyz} (listening, the upstream broker accepts
     * connections) instead of {@code /healthz}, as a Service does before it sends traffic.
     */
    SluiceContainer untilReady() {
        waitingFor(probe("/readyz"));
        return this;
    }

    /** The Pulsar service URL of this Sluice for a client on the host. */
    String serviceUrl() {
        return "pulsar://" + getHost() + ":" + getMappedPort(PULSAR_PORT);
    }

    /** The admin port (REST API, probes, metrics) as seen from the host. */
    SluiceAdmin admin() {
        return new SluiceAdmin(URI.create("http://" + getHost() + ":" + getMappedPort(ADMIN_PORT)));
    }

    /**
     * Sends SIGTERM to the container's PID 1, as {@code docker stop} and a pod deletion do, and
     * waits for it to exit.
     *
     * @return the exit code
     * @throws AssertionError if it still runs after {@code timeout}
     */
    long terminate(Duration timeout) {
        getDockerClient().killContainerCmd(getContainerId()).withSignal("TERM").exec();
        try (WaitContainerResultCallback exit = getDockerClient().waitContainerCmd(getContainerId())
                .exec(new WaitContainerResultCallback())) {
            return exit.awaitStatusCode(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            throw new AssertionError("Sluice did not exit within " + timeout + " of SIGTERM", e);
        }
    }

    private static WaitStrategy probe(String path) {
        return Wait.forHttp(path).forPort(ADMIN_PORT).forStatusCode(200).withStartupTimeout(Duration.ofMinutes(1));
    }
}
