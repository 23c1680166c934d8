package io.sluice.bench.sidebyside;

import io.sluice.bench.kroxylicious.KroxyliciousLauncher;
import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.process.JavaCommand;
import io.sluice.testkit.process.Readiness;
import io.sluice.testkit.process.RuntimeClasspath;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Kroxylicious 0.12.0, the Kafka peer of the suite, as a child JVM on its own runtime's classpath:
 * one virtual cluster in front of the whole cluster, no filters, a bootstrap port and after it a
 * port per broker node (its "port identifies node" gateway), started by {@link KroxyliciousLauncher}.
 */
final class KroxyliciousProcess implements AutoCloseable {

    /** The contender's name in tables. */
    static final String NAME = "Kroxylicious";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final ChildProcess process;
    private final int port;

    private KroxyliciousProcess(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * TLS on both legs: the gateway presents {@code certificate} and {@code key} (PEM) to clients,
     * and trusts the brokers' certificates by {@code brokersCa} (PEM).
     */
    record BothLegsTls(Path certificate, Path key, Path brokersCa) {}

    /**
     * Starts Kroxylicious for {@code bootstrapServers}, whose brokers have node ids {@code nodeIds},
     * and returns once its bootstrap port accepts connections.
     */
    static KroxyliciousProcess start(
            String bootstrapServers, List<Integer> nodeIds, List<String> jvmOptions, Path workDir) {
        return start(bootstrapServers, nodeIds, jvmOptions, workDir, null);
    }

    /** As {@link #start(String, List, List, Path)}, with {@code tls} on both legs, or none if null. */
    static KroxyliciousProcess start(
            String bootstrapServers, List<Integer> nodeIds, List<String> jvmOptions, Path workDir, BothLegsTls tls) {
        int port = FreePorts.loopbackRange(1 + nodeIds.size());
        Path config = workDir.resolve("kroxylicious.yaml");
        try {
            Files.writeString(config, configuration(bootstrapServers, nodeIds, port, tls));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChildProcess process = JavaCommand.mainClass(KroxyliciousLauncher.class.getName())
                .jvmOptions(jvmOptions)
                .classpath(launcherClasspath())
                .args(config.toString())
                .spec("kroxylicious")
                .logFile(workDir.resolve("kroxylicious.log"))
                .build()
                .start();
        Readiness.await(
                process,
                "printed \"" + KroxyliciousLauncher.READY + "\"",
                START_TIMEOUT,
                Readiness.logLine(process, KroxyliciousLauncher.READY));
        return new KroxyliciousProcess(process, port);
    }

    /**
     * The virtual cluster: bootstrap on {@code port}, node ids in one range from the first to the
     * last, each on the next port after the bootstrap's in order, advertised on the loopback address;
     * with {@code tls} (or none if null) on both legs.
     */
    static String configuration(String bootstrapServers, List<Integer> nodeIds, int port, BothLegsTls tls) {
        int first = nodeIds.stream().mapToInt(Integer::intValue).min().orElseThrow();
        int last = nodeIds.stream().mapToInt(Integer::intValue).max().orElseThrow();
        if (last - first + 1 != nodeIds.size()) {
            throw new IllegalArgumentException("node ids " + nodeIds + " are not one range");
        }
        String upstreamTls = tls == null
                ? ""
                : String.join(
                        "\n",
                        "      tls:",
                        "        trust:",
                        "          storeFile: " + tls.brokersCa(),
                        "          storeType: PEM",
                        "");
        String gatewayTls = tls == null
                ? ""
                : String.join(
                        "\n",
                        "        tls:",
                        "          key:",
                        "            privateKeyFile: " + tls.key(),
                        "            certificateFile: " + tls.certificate(),
                        "");
        return String.join(
                "\n",
                "virtualClusters:",
                "  - name: bench",
                "    targetCluster:",
                "      bootstrapServers: " + bootstrapServers,
                upstreamTls + "    gateways:",
                "      - name: gateway",
                "        portIdentifiesNode:",
                "          bootstrapAddress: 127.0.0.1:" + port,
                "          advertisedBrokerAddressPattern: 127.0.0.1",
                "          nodeStartPort: " + (port + 1),
                "          nodeIdRanges:",
                "            - name: brokers",
                "              start: " + first,
                "              end: " + last,
                gatewayTls);
    }

    /** The launcher's own jar (or classes directory) and the runtime's jars. */
    private static String launcherClasspath() {
        try {
            Path launcher = Path.of(KroxyliciousLauncher.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return launcher
                    + File.pathSeparator
                    + RuntimeClasspath.read(KroxyliciousLauncher.class, KroxyliciousLauncher.CLASSPATH_RESOURCE);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Kroxylicious as a contender: clients bootstrap from its port. */
    Contender contender() {
        return new Contender(NAME, "127.0.0.1:" + port, process.pid());
    }

    /** SIGTERM, then SIGKILL if the proxy has not exited after 10 s. */
    @Override
    public void close() {
        process.stop(STOP_GRACE);
    }
}
