package io.sluice.testkit.kafka;

import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.process.JavaCommand;
import io.sluice.testkit.process.RuntimeClasspath;
import io.sluice.testkit.process.ScratchDirectories;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A real Apache Kafka cluster in KRaft mode for tests and benchmarks: one controller and, by
 * default, three brokers, each node a child JVM of its own running the plain Kafka server
 * ({@code kafka.Kafka server.properties}, after {@code kafka-storage format}), so that a broker
 * can be stopped, SIGKILLed or frozen on its own while the others serve. Kafka's jars are never on
 * the caller's classpath: the testkit-kafka-runtime build writes their paths to the resource
 * {@code kafka.classpath} next to this class.
 *
 * <p>Brokers have node ids 1..n, the controller {@link #CONTROLLER_ID}. Every listener binds
 * 127.0.0.1 on a free port: per broker an {@code INTERNAL} listener for replication, the
 * {@code PLAINTEXT} listener for clients ({@link #bootstrapServers()}) and, with
 * {@link Builder#saslUser}, a {@code SASL_PLAINTEXT} listener taking PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and
 * OAUTHBEARER (Kafka's unsecured tokens: any {@code sub} is accepted)
 * ({@link #saslBootstrapServers()}) and, with {@link Builder#tls}, an {@code SSL} listener presenting
 * the given PEM certificate ({@link #sslBootstrapServers()}) and, with {@link Builder#requireClientCertificates}, an {@code MTLS}
 * listener requiring client certificates ({@link #mutualTlsBootstrapServers()}). Client listeners advertise {@code 127.0.0.1:<port>} unless
 * {@link Builder#advertisedHost} (or, for one broker's PLAINTEXT port, {@link Builder#advertisedClientPort})
 * says otherwise. The internal topics are replicated as far as the
 * brokers allow (3, min ISR 2 with three brokers), so transactions and consumer groups work and
 * survive one broker's restart. A restarted broker keeps its ports and data.
 *
 * <p>Each node's directory (data and {@code kafka.log}) is under one scratch directory, deleted
 * by {@link #close()}; like every child of the testkit, each node is recorded in a PID file and
 * stopped at JVM exit if nobody closes the cluster (see {@code io.sluice.testkit.process}).
 */
public final class KafkaCluster implements AutoCloseable {

    /** The node id of the controller; brokers are 1..n. */
    public static final int CONTROLLER_ID = 0;

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    /** A broker's controlled shutdown hands its leaderships over first; beyond this it is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z0-9_-]+");

    private static KafkaCluster shared;

    private final Path dir;
    private final int controllerPort;
    private final Map<Integer, int[]> brokerPorts;
    private final boolean sasl;
    private final boolean tls;
    private final boolean mutualTls;
    private final KafkaNode controller;
    private final Map<Integer, KafkaNode> brokers = new LinkedHashMap<>();
    private boolean closed;

    private KafkaCluster(Builder b, Path dir) {
        this.dir = dir;
        this.sasl = !b.saslUsers.isEmpty();
        this.tls = b.tlsCertificate != null;
        this.mutualTls = b.clientCa != null;
        if (mutualTls && !tls) {
            throw new IllegalArgumentException("a listener requiring client certificates needs tls(...) too");
        }
        int perBroker = 2 + (sasl ? 1 : 0) + (tls ? 1 : 0) + (mutualTls ? 1 : 0);
        int[] ports = FreePorts.loopback(1 + perBroker * b.brokers);
        this.controllerPort = ports[0];
        this.brokerPorts = new LinkedHashMap<>();
        for (int i = 0; i < b.brokers; i++) {
            int[] own = new int[perBroker];
            System.arraycopy(ports, 1 + i * perBroker, own, 0, perBroker);
            brokerPorts.put(i + 1, own);
        }
        writeLog4jConfig();
        String clusterId = ClusterId.random(new SecureRandom());
        List<String> controllerFormat = new ArrayList<>(List.of(ClusterId.option(clusterId)));
        b.saslUsers.forEach((user, password) -> {
            for (String scram : List.of("SCRAM-SHA-256", "SCRAM-SHA-512")) {
                controllerFormat.addAll(
                        List.of("--add-scram", scram + "=[name=" + user + ",password=" + password + "]"));
            }
        });
        this.controller = node(CONTROLLER_ID, controllerConfig(b), controllerFormat, b.jvmOptions);
        for (int id : brokerPorts.keySet()) {
            Map<String, String> config = brokerConfig(id, b);
            config.putAll(b.nodeConfig.getOrDefault(id, Map.of()));
            brokers.put(id, node(id, config, List.of(ClusterId.option(clusterId)), b.jvmOptions));
        }
    }

    /** Returns a builder for a cluster of one's own. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the cluster shared by every test of this JVM (three brokers, SASL user
     * {@code alice} with password {@code alice-secret}), starting it on first use. Stop, kill or
     * freeze its brokers only if no other test uses it, and bring them back; once closed, the next
     * call starts a new one. The shutdown hook stops it.
     */
    public static synchronized KafkaCluster shared() {
        if (shared == null || shared.isClosed()) {
            shared = builder().saslUser("alice", "alice-secret").start();
        }
        return shared;
    }

    /** {@code 127.0.0.1:PORT,...} of every broker's PLAINTEXT listener. */
    public String bootstrapServers() {
        return brokerPorts.keySet().stream()
                .map(id -> "127.0.0.1:" + brokerPort(id))
                .collect(Collectors.joining(","));
    }

    /**
     * {@code 127.0.0.1:PORT,...} of every broker's SASL_PLAINTEXT listener.
     *
     * @throws IllegalStateException if the cluster was built without {@link Builder#saslUser}
     */
    public String saslBootstrapServers() {
        return brokerPorts.keySet().stream()
                .map(id -> "127.0.0.1:" + saslPort(id))
                .collect(Collectors.joining(","));
    }

    /**
     * {@code 127.0.0.1:PORT,...} of every broker's SSL listener.
     *
     * @throws IllegalStateException if the cluster was built without {@link Builder#tls}
     */
    public String sslBootstrapServers() {
        return brokerPorts.keySet().stream()
                .map(id -> "127.0.0.1:" + sslPort(id))
                .collect(Collectors.joining(","));
    }

    /**
     * {@code 127.0.0.1:PORT,...} of every broker's MTLS listener, which requires a client certificate.
     *
     * @throws IllegalStateException if the cluster was built without {@link Builder#requireClientCertificates}
     */
    public String mutualTlsBootstrapServers() {
        return brokerPorts.keySet().stream()
                .map(id -> "127.0.0.1:" + mutualTlsPort(id))
                .collect(Collectors.joining(","));
    }

    /** The brokers' node ids, 1..n. */
    public List<Integer> nodeIds() {
        return List.copyOf(brokerPorts.keySet());
    }

    /** The port of a broker's PLAINTEXT (client) listener. */
    public int brokerPort(int nodeId) {
        return ports(nodeId)[1];
    }

    /** The port of a broker's INTERNAL listener, which the brokers replicate over. */
    public int internalPort(int nodeId) {
        return ports(nodeId)[0];
    }

    /**
     * The port of a broker's SASL_PLAINTEXT listener.
     *
     * @throws IllegalStateException if the cluster was built without {@link Builder#saslUser}
     */
    public int saslPort(int nodeId) {
        if (!sasl) {
            throw new IllegalStateException("this cluster has no SASL listener; build it with saslUser(...)");
        }
        return ports(nodeId)[2];
    }

    /**
     * The port of a broker's SSL listener.
     *
     * @throws IllegalStateException if the cluster was built without {@link Builder#tls}
     */
    public int sslPort(int nodeId) {
        if (!tls) {
            throw new IllegalStateException("this cluster has no SSL listener; build it with tls(...)");
        }
        return ports(nodeId)[sasl ? 3 : 2];
    }

    /**
     * The port of a broker's MTLS listener.
     *
     * @throws IllegalStateException if the cluster was built without {@link Builder#requireClientCertificates}
     */
    public int mutualTlsPort(int nodeId) {
        if (!mutualTls) {
            throw new IllegalStateException(
                    "this cluster has no MTLS listener; build it with requireClientCertificates(...)");
        }
        return ports(nodeId)[sasl ? 4 : 3];
    }

    /** The port of the controller's listener. */
    public int controllerPort() {
        return controllerPort;
    }

    /** Whether a broker's JVM is alive (frozen counts as alive). */
    public boolean isRunning(int nodeId) {
        return broker(nodeId).process().isRunning();
    }

    /** The PID of a broker's current (or, once stopped, last) JVM. */
    public long pid(int nodeId) {
        return broker(nodeId).process().pid();
    }

    /** The log (stdout and stderr, log4j at WARN) of a node, broker or {@link #CONTROLLER_ID}. */
    public Path logFile(int nodeId) {
        return nodeId == CONTROLLER_ID ? controller.logFile() : broker(nodeId).logFile();
    }

    /** The directory holding every node's data and log; deleted by {@link #close()}. */
    public Path dataDir() {
        return dir;
    }

    /**
     * Stops a broker as {@code kafka-server-stop.sh} does (SIGTERM: a controlled shutdown that
     * first moves its leaderships), SIGKILL if it has not exited after 30 s. Data is kept.
     */
    public void stopBroker(int nodeId) {
        broker(nodeId).process().stop(STOP_GRACE);
    }

    /** Kills a broker with SIGKILL, as a crash would; the controller fences it once its session expires. */
    public void killBroker(int nodeId) {
        broker(nodeId).process().kill();
    }

    /** Starts a stopped or killed broker on its ports and data; returns once it is registered and unfenced. */
    public void startBroker(int nodeId) {
        requireNotClosed();
        KafkaNode broker = broker(nodeId);
        broker.launch();
        awaitReady(List.of(broker));
    }

    /** {@link #stopBroker} then {@link #startBroker}. */
    public void restartBroker(int nodeId) {
        stopBroker(nodeId);
        startBroker(nodeId);
    }

    /** Suspends a broker with SIGSTOP: its connections stay open but nothing is answered. */
    public void freezeBroker(int nodeId) {
        broker(nodeId).process().freeze();
    }

    /** Resumes a broker {@link #freezeBroker} suspended; does nothing if it is not frozen. */
    public void unfreezeBroker(int nodeId) {
        broker(nodeId).process().unfreeze();
    }

    /** Kills every node (its data is about to go) and deletes the cluster's directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        brokers.values().forEach(node -> node.process().kill());
        controller.process().kill();
        ScratchDirectories.delete(dir);
    }

    @Override
    public String toString() {
        return "KafkaCluster[" + bootstrapServers() + (sasl ? ", SASL " + saslBootstrapServers() : "")
                + (tls ? ", SSL " + sslBootstrapServers() : "")
                + ", controller 127.0.0.1:" + controllerPort + ", " + dir + "]";
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private void requireNotClosed() {
        if (isClosed()) {
            throw new IllegalStateException("the Kafka cluster is closed");
        }
    }

    private int[] ports(int nodeId) {
        int[] ports = brokerPorts.get(nodeId);
        if (ports == null) {
            throw new IllegalArgumentException("no broker " + nodeId + "; the brokers are " + brokerPorts.keySet());
        }
        return ports;
    }

    private KafkaNode broker(int nodeId) {
        ports(nodeId);
        return brokers.get(nodeId);
    }

    private void startAll() {
        List<KafkaNode> all = new ArrayList<>();
        all.add(controller);
        all.addAll(brokers.values());
        // All at once: the brokers wait for the controller by themselves, and the JVMs boot in parallel.
        all.forEach(KafkaNode::launch);
        awaitReady(all);
    }

    private static void awaitReady(List<KafkaNode> nodes) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        for (KafkaNode node : nodes) {
            node.awaitReady(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
    }

    private String voters() {
        return CONTROLLER_ID + "@127.0.0.1:" + controllerPort;
    }

    private Map<String, String> commonConfig(int nodeId) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("node.id", Integer.toString(nodeId));
        c.put("controller.quorum.voters", voters());
        c.put("controller.listener.names", "CONTROLLER");
        c.put(
                "listener.security.protocol.map",
                "CONTROLLER:PLAINTEXT,INTERNAL:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL,"
                        + "MTLS:SSL");
        c.put("log.dirs", nodeDir(nodeId).resolve("data").toString());
        return c;
    }

    private Map<String, String> controllerConfig(Builder b) {
        Map<String, String> c = commonConfig(CONTROLLER_ID);
        c.put("process.roles", "controller");
        c.put("listeners", "CONTROLLER://127.0.0.1:" + controllerPort);
        // A restarted broker may register again only once its old session has expired, and a
        // killed one is fenced only then: 4 s instead of 9 s, with heartbeats every second.
        c.put("broker.session.timeout.ms", "4000");
        c.putAll(b.controllerConfig);
        return c;
    }

    private Map<String, String> brokerConfig(int nodeId, Builder b) {
        int replicas = Math.min(3, b.brokers);
        String minIsr = Integer.toString(Math.min(2, b.brokers));
        Map<String, String> c = commonConfig(nodeId);
        c.put("process.roles", "broker");
        String listeners =
                "INTERNAL://127.0.0.1:" + internalPort(nodeId) + ",PLAINTEXT://127.0.0.1:" + brokerPort(nodeId);
        int advertisedPort = b.advertisedClientPorts.getOrDefault(nodeId, brokerPort(nodeId));
        String advertised = "INTERNAL://127.0.0.1:" + internalPort(nodeId) + ",PLAINTEXT://" + b.advertisedHost + ":"
                + advertisedPort;
        if (sasl) {
            listeners += ",SASL_PLAINTEXT://127.0.0.1:" + saslPort(nodeId);
            advertised += ",SASL_PLAINTEXT://" + b.advertisedHost + ":" + saslPort(nodeId);
            c.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER");
            // Kafka's unsecured JWT validator (the default without a JWKS endpoint): any token of
            // algorithm "none" is accepted and its sub claim is the principal.
            c.put(
                    "listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config",
                    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
                            + " unsecuredLoginStringClaim_sub=\"admin\";");
            c.put(
                    "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required "
                            + b.saslUsers.entrySet().stream()
                                    .map(u -> "user_" + u.getKey() + "=\"" + u.getValue() + "\"")
                                    .collect(Collectors.joining(" "))
                            + ";");
            for (String scram : List.of("scram-sha-256", "scram-sha-512")) {
                c.put(
                        "listener.name.sasl_plaintext." + scram + ".sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
            }
        }
        if (tls) {
            listeners += ",SSL://127.0.0.1:" + sslPort(nodeId);
            advertised += ",SSL://" + b.advertisedHost + ":" + sslPort(nodeId);
            c.put("ssl.keystore.type", "PEM");
            c.put("ssl.keystore.location", keystore(b).toString());
        }
        if (mutualTls) {
            listeners += ",MTLS://127.0.0.1:" + mutualTlsPort(nodeId);
            advertised += ",MTLS://" + b.advertisedHost + ":" + mutualTlsPort(nodeId);
            c.put("listener.name.mtls.ssl.client.auth", "required");
            c.put("listener.name.mtls.ssl.truststore.type", "PEM");
            c.put("listener.name.mtls.ssl.truststore.location", b.clientCa.toString());
        }
        c.put("listeners", listeners);
        c.put("advertised.listeners", advertised);
        c.put("inter.broker.listener.name", "INTERNAL");
        c.put("offsets.topic.replication.factor", Integer.toString(replicas));
        c.put("transaction.state.log.replication.factor", Integer.toString(replicas));
        c.put("transaction.state.log.min.isr", minIsr);
        c.put("share.coordinator.state.topic.replication.factor", Integer.toString(replicas));
        c.put("share.coordinator.state.topic.min.isr", minIsr);
        // Fewer partitions than the default 50 make the first consumer group and the first
        // transaction seconds faster; neither count changes what a client sees.
        c.put("offsets.topic.num.partitions", "5");
        c.put("transaction.state.log.num.partitions", "5");
        c.put("group.initial.rebalance.delay.ms", "0");
        c.put("broker.heartbeat.interval.ms", "1000");
        if (b.socketRequestMaxBytes > 0) {
            c.put("socket.request.max.bytes", Integer.toString(b.socketRequestMaxBytes));
        }
        c.putAll(b.brokerConfig);
        return c;
    }

    /** The brokers' PEM key store: the key, then the certificate chain, as Kafka reads it; written once. */
    private Path keystore(Builder b) {
        Path keystore = dir.resolve("keystore.pem");
        try {
            if (!Files.exists(keystore)) {
                Files.writeString(keystore, Files.readString(b.tlsKey) + "\n" + Files.readString(b.tlsCertificate));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the brokers' key store", e);
        }
        return keystore;
    }

    private Path nodeDir(int nodeId) {
        return dir.resolve("node-" + nodeId);
    }

    private KafkaNode node(
            int nodeId, Map<String, String> config, List<String> formatOptions, List<String> jvmOptions) {
        Path nodeDir = nodeDir(nodeId);
        JavaCommand java = JavaCommand.mainClass(KafkaNodeMain.class.getName())
                .jvmOptions(jvmOptions)
                .jvmOptions("-Dlog4j2.configurationFile=" + dir.resolve("log4j2.xml"))
                .classpath(RuntimeClasspath.read(KafkaCluster.class, "kafka.classpath")
                        + File.pathSeparator
                        + testkitLocation())
                .args(KafkaNode.serverProperties(nodeDir).toString())
                .args(formatOptions);
        String name = nodeId == CONTROLLER_ID ? "kafka-controller" : "kafka-broker-" + nodeId;
        return new KafkaNode(
                nodeId, nodeDir, config, java.spec(name).directory(dir).scratchDirectory(dir));
    }

    private void writeLog4jConfig() {
        try (InputStream log4j = KafkaCluster.class.getResourceAsStream("log4j2-kafka.xml")) {
            Files.copy(log4j, dir.resolve("log4j2.xml"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the Kafka nodes' log4j configuration", e);
        }
    }

    /** Where {@link KafkaNodeMain} is loaded from: the testkit's jar or classes directory. */
    private static String testkitLocation() {
        try {
            return Path.of(KafkaNodeMain.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Options of a new cluster; {@link #start()} launches it. */
    public static final class Builder {
        private int brokers = 3;
        private final Map<String, String> brokerConfig = new LinkedHashMap<>();
        private final Map<String, String> controllerConfig = new LinkedHashMap<>();
        private final Map<Integer, Map<String, String>> nodeConfig = new LinkedHashMap<>();
        private final Map<String, String> saslUsers = new LinkedHashMap<>();
        // C1 only: half the CPU of a node's start, which on a busy build machine is its
        // duration; tests do not need the brokers' peak throughput.
        private final List<String> jvmOptions =
                new ArrayList<>(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        private String advertisedHost = "127.0.0.1";
        private final Map<Integer, Integer> advertisedClientPorts = new LinkedHashMap<>();
        private int socketRequestMaxBytes;
        private Path tlsCertificate;
        private Path tlsKey;
        private Path clientCa;

        private Builder() {}

        /** The number of brokers, 3 by default. */
        public Builder brokers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("a cluster needs at least one broker, not " + count);
            }
            this.brokers = count;
            return this;
        }

        /**
         * Sets a key of every broker's {@code server.properties}, overriding this class's
         * defaults. Overriding listeners or ports makes the accessors report wrong values.
         */
        public Builder brokerConfig(String key, String value) {
            brokerConfig.put(key, value);
            return this;
        }

        /** Sets a key of the controller's {@code server.properties}, overriding this class's defaults. */
        public Builder controllerConfig(String key, String value) {
            controllerConfig.put(key, value);
            return this;
        }

        /** Sets a key of one broker's {@code server.properties}, over {@link #brokerConfig}. */
        public Builder nodeConfig(int nodeId, String key, String value) {
            nodeConfig.computeIfAbsent(nodeId, id -> new LinkedHashMap<>()).put(key, value);
            return this;
        }

        /**
         * Adds a SASL_PLAINTEXT listener to every broker (the first call does) and a user who
         * may log in there with PLAIN or SCRAM-SHA-256. Names and passwords are plain words
         * ({@code [A-Za-z0-9_-]+}). No authorizer runs: a logged-in user may do anything.
         */
        public Builder saslUser(String name, String password) {
            if (!PLAIN_WORD.matcher(name).matches()
                    || !PLAIN_WORD.matcher(password).matches()) {
                throw new IllegalArgumentException("SASL user names and passwords must match " + PLAIN_WORD);
            }
            saslUsers.put(name, password);
            return this;
        }

        /**
         * Adds an SSL listener to every broker, presenting {@code certificate} (PEM, the chain)
         * with {@code key} (PEM, PKCS#8, not encrypted); it must name the host the brokers
         * advertise for clients that verify host names. No client certificate is asked for.
         */
        public Builder tls(Path certificate, Path key) {
            this.tlsCertificate = certificate;
            this.tlsKey = key;
            return this;
        }

        /**
         * Adds an MTLS listener to every broker beside the SSL one ({@link #tls} is needed), with the
         * same certificate, that requires a client certificate chaining to {@code clientCa} (PEM):
         * {@code ssl.client.auth=required}.
         */
        public Builder requireClientCertificates(Path clientCa) {
            this.clientCa = clientCa;
            return this;
        }

        /** The host the brokers' client listeners advertise, {@code 127.0.0.1} by default. */
        public Builder advertisedHost(String host) {
            this.advertisedHost = host;
            return this;
        }

        /**
         * The port broker {@code nodeId}'s PLAINTEXT listener advertises instead of its own, e.g. a
         * sidecar proxy's in front of it; {@link #brokerPort} stays the port it binds.
         */
        public Builder advertisedClientPort(int nodeId, int port) {
            advertisedClientPorts.put(nodeId, port);
            return this;
        }

        /** The brokers' {@code socket.request.max.bytes}: a larger request closes its connection. */
        public Builder socketRequestMaxBytes(int bytes) {
            this.socketRequestMaxBytes = bytes;
            return this;
        }

        /**
         * Adds options for every node's JVM, after the defaults
         * {@code -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1}, which they override: a
         * benchmark of the brokers' throughput wants {@code -XX:TieredStopAtLevel=4}.
         */
        public Builder jvmOptions(String... options) {
            jvmOptions.addAll(List.of(options));
            return this;
        }

        /**
         * Formats every node's storage, starts the controller and the brokers together and returns
         * once every broker is registered and unfenced.
         *
         * @throws IllegalStateException if a node exits or is not ready within 120 s; the message
         *     ends with the tail of its log
         */
        public KafkaCluster start() {
            Path dir = ScratchDirectories.create("kafka");
            KafkaCluster cluster;
            try {
                cluster = new KafkaCluster(this, dir);
            } catch (RuntimeException e) {
                ScratchDirectories.delete(dir);
                throw e;
            }
            try {
                cluster.startAll();
                return cluster;
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
        }
    }
}
