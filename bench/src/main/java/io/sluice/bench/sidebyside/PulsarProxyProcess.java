package io.sluice.bench.sidebyside;

import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.process.JavaCommand;
import io.sluice.testkit.process.Readiness;
import io.sluice.testkit.pulsar.PulsarBroker;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Apache Pulsar's own proxy ({@code pulsar-proxy} 4.0.6, the newest on Maven Central) running as
 * a child JVM on the 4.0.7 broker's runtime classpath plus {@code ipaddress} and {@code jetty-proxy},
 * pointed at the broker by URL, without a metadata store.
 */
final class PulsarProxyProcess implements AutoCloseable {

    /** The contender's name in tables and in {@code results.json}. */
    static final String NAME = "Pulsar proxy";

    private static final String MAIN_CLASS = "org.apache.pulsar.proxy.server.ProxyServiceStarter";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final ChildProcess process;
    private final int port;

    private PulsarProxyProcess(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the proxy in front of {@code broker} and returns once its service port accepts connections. */
    static PulsarProxyProcess start(Path proxyJar, PulsarBroker broker, List<String> jvmOptions, Path workDir) {
        return start(proxyJar, broker, jvmOptions, workDir, List.of());
    }

    /** As {@link #start(Path, PulsarBroker, List, Path)}, with {@code extraConfig} lines appended to proxy.conf. */
    static PulsarProxyProcess start(
            Path proxyJar, PulsarBroker broker, List<String> jvmOptions, Path workDir, List<String> extraConfig) {
        if (!Files.isRegularFile(proxyJar)) {
            throw new IllegalStateException("no Pulsar proxy jar at " + proxyJar + "; build the bench module first");
        }
        int[] ports = FreePorts.loopback(2);
        Path config = workDir.resolve("proxy.conf");
        try {
            // Without metadataStoreUrl the proxy sends every lookup to brokerServiceURL.
            Files.writeString(
                    config,
                    String.join(
                            "\n",
                            "clusterName=standalone",
                            "metadataStoreUrl=",
                            "configurationMetadataStoreUrl=",
                            "brokerServiceURL=" + broker.serviceUrl(),
                            "brokerWebServiceURL=" + broker.webUrl(),
                            // The default allows only 6650 and 6651; this broker's port is chosen at random.
                            "brokerProxyAllowedTargetPorts=" + broker.brokerPort(),
                            "bindAddress=127.0.0.1",
                            "advertisedAddress=127.0.0.1",
                            "servicePort=" + ports[0],
                            "webServicePort=" + ports[1],
                            String.join("\n", extraConfig),
                            ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // The proxy jar's directory also holds the few jars it needs that the broker does not.
        String classpath = PulsarBroker.runtimeClasspath()
                + File.pathSeparator
                + proxyJar.getParent().resolve("*");
        ChildProcess process = JavaCommand.mainClass(MAIN_CLASS)
                .jvmOptions(jvmOptions)
                .jvmOptions(PulsarBroker.PULSAR_JVM_FLAGS)
                .classpath(classpath)
                .args("--config", config.toString())
                .spec("pulsar-proxy")
                .logFile(workDir.resolve("pulsar-proxy.log"))
                .build()
                .start();
        Readiness.await(process, "listened on " + ports[0], START_TIMEOUT, Readiness.portOpen(ports[0]));
        return new PulsarProxyProcess(process, ports[0]);
    }

    Contender contender() {
        return contender(NAME, "pulsar://127.0.0.1:" + port);
    }

    /** This proxy under another name, reached at {@code serviceUrl} (its TLS port, say). */
    Contender contender(String name, String serviceUrl) {
        return new Contender(name, serviceUrl, process.pid());
    }

    /** SIGTERM, then SIGKILL if the proxy has not exited after 10 s. */
    @Override
    public void close() {
        process.stop(STOP_GRACE);
    }
}
