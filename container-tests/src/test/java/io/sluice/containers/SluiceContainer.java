package io.sluice.containers;

import com.github.dockerjava.api.command.WaitContainerResultCallback;
import io.sluice.testkit.process.FreePorts;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.utility.DockerImageName;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A container of Sluice's image ({@link SluiceImage}) on the test network, configured as the Helm
 * chart configures it: by {@code SLUICE_*} environment variables, with the image's entrypoint. In
 * front of a Pulsar broker ({@link #SluiceContainer(Network, String)}) or of a Kafka cluster
 * ({@link #inFrontOfKafka}).
 */
final class SluiceContainer extends GenericContainer<SluiceContainer> {

    static final int PULSAR_PORT = 6650;
    static final int ADMIN_PORT = 8080;
    /** The admin token every container gets as a file, as the chart always gives one. */
    static final String ADMIN_TOKEN = "container-test-token";

    private static final String TOKEN_FILE = "/etc/sluice/admin-token";
    /** Bound read-only, as the chart mounts its Secret: a copy into the container fails on a read-only root. */
    private static final Path TOKEN_ON_HOST = writeToken();

    /** The Kafka bootstrap port, in the container and on the host alike; 0 without the Kafka front end. */
    private int kafkaPort;

    /** Sluice in front of the Pulsar broker at {@code upstream}, {@code pulsar://host:port}. */
    SluiceContainer(Network network, String upstream) {
        this(network);
        withEnv("SLUICE_UPSTREAM", upstream);
        withExposedPorts(PULSAR_PORT, ADMIN_PORT);
    }

    private SluiceContainer(Network network) {
        super(DockerImageName.parse(SluiceImage.ensure()));
        withNetwork(network);
        withFileSystemBind(TOKEN_ON_HOST.toString(), TOKEN_FILE, BindMode.READ_ONLY);
        withEnv("SLUICE_ADMIN_TOKEN_FILE", TOKEN_FILE);
        waitingFor(probe("/healthz"));
    }

    /** The token in a file the image's user (UID 10001) can read. */
    private static Path writeToken() {
        try {
            Path dir = Files.createTempDirectory("sluice-admin-token");
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path file = Files.writeString(dir.resolve("admin-token"), ADMIN_TOKEN + "\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sluice in front of a Kafka cluster of node ids up to {@code maxNodeId}, bootstrapping from
     * {@code upstream} ({@code host:port,...}), in rewrite mode.
     *
     * <p>A Kafka client goes on to the node ports Sluice advertises, so each must be the same on
     * the host as in the container: Sluice listens on free host ports (the bootstrap port P, node N
     * on P + N), each published on that very host port, and advertises the Docker host. Chosen
     * over the host network mode, which also needs no mapping, because that mode takes Sluice off
     * the test network (no broker names) and works on Linux engines only; the fixed ports risk only
     * that another process takes one between the choice and the start.
     */
    static SluiceContainer inFrontOfKafka(Network network, String upstream, int maxNodeId) {
        SluiceContainer sluice = new SluiceContainer(network);
        int port = FreePorts.loopbackRange(1 + maxNodeId);
        sluice.kafkaPort = port;
        sluice.withEnv("SLUICE_KAFKA_UPSTREAM", upstream)
                .withEnv("SLUICE_KAFKA_LISTEN", "0.0.0.0:" + port)
                .withEnv("SLUICE_KAFKA_NODE_PORT_BASE", Integer.toString(port))
                .withEnv(
                        "SLUICE_KAFKA_ADVERTISED_HOST",
                        DockerClientFactory.instance().dockerHostIpAddress())
                .withExposedPorts(ADMIN_PORT);
        for (int p = port; p <= port + maxNodeId; p++) {
            sluice.addFixedExposedPort(p, p);
        }
        return sluice;
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

    /** What a Kafka client on the host puts in {@code bootstrap.servers}. */
    String kafkaBootstrap() {
        return getHost() + ":" + kafkaPort();
    }

    /** The port Sluice serves Kafka node {@code nodeId} on, and advertises for it. */
    int kafkaNodePort(int nodeId) {
        return kafkaPort() + nodeId;
    }

    private int kafkaPort() {
        if (kafkaPort == 0) {
            throw new IllegalStateException("this Sluice has no Kafka front end; make it with inFrontOfKafka");
        }
        return kafkaPort;
    }

    /** The admin port (REST API, probes, metrics) as seen from the host. */
    SluiceAdmin admin() {
        return new SluiceAdmin(URI.create("http://" + getHost() + ":" + getMappedPort(ADMIN_PORT)), ADMIN_TOKEN);
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
        try (WaitContainerResultCallback exit =
                getDockerClient().waitContainerCmd(getContainerId()).exec(new WaitContainerResultCallback())) {
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
