package io.sluice.bench.sidebyside;

import io.sluice.testbroker.PulsarBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Apache Pulsar's own proxy ({@code pulsar-proxy} 4.0.6, the newest on Maven Central) running as
 * a child JVM on the 4.0.7 broker's runtime classpath plus {@code ipaddress} and {@code jetty-proxy},
 * pointed at the broker by URL, without a metadata store.
 */
final class PulsarProxyProcess implements AutoCloseable {

    /** The contender's name in tables and in {@code results.json}. */
    static final String NAME = "Pulsar proxy";

    private static final String MAIN_CLASS = "org.apache.pulsar.proxy.server.ProxyServiceStarter";

    private final ChildJvm jvm;
    private final int port;

    private PulsarProxyProcess(ChildJvm jvm, int port) {
        this.jvm = jvm;
        this.port = port;
    }

    /** Starts the proxy in front of {@code broker} and returns once its service port accepts connections. */
    static PulsarProxyProcess start(Path proxyJar, PulsarBroker broker, List<String> jvmOptions, Path workDir) {
        if (!Files.isRegularFile(proxyJar)) {
            throw new IllegalStateException("no Pulsar proxy jar at " + proxyJar + "; build the bench module first");
        }
        int[] ports = PulsarBroker.freePorts(2);
        Path config = workDir.resolve("proxy.conf");
        try {
            // Without metadataStoreUrl the proxy sends every lookup to brokerServiceURL.
            Files.writeString(config, String.join("\n",
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
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> args = new ArrayList<>(jvmOptions);
        args.addAll(PulsarBroker.PULSAR_JVM_FLAGS);
        args.add(MAIN_CLASS);
        args.addAll(List.of("--config", config.toString()));
        // The proxy jar's directory also holds the few jars it needs that the broker does not.
        String classpath = BrokerClasspath.read() + java.io.File.pathSeparator + proxyJar.getParent().resolve("*");
        ChildJvm jvm = ChildJvm.start("pulsar-proxy", args, Map.of("CLASSPATH", classpath), workDir.resolve("pulsar-proxy.log"));
        awaitPort(jvm, ports[0], Duration.ofSeconds(90));
        return new PulsarProxyProcess(jvm, ports[0]);
    }

    Contender contender() {
        return new Contender(NAME, "pulsar://127.0.0.1:" + port, jvm.pid());
    }

    private static void awaitPort(ChildJvm jvm, int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                jvm.requireAlive();
                if (System.nanoTime() > deadline) {
                    jvm.close();
                    throw new IllegalStateException("the Pulsar proxy did not listen on " + port + jvm.logTail());
                }
                Sleep.millis(200);
            }
        }
    }

    @Override
    public void close() {
        jvm.close();
    }
}
