package io.sluice.testkit.pulsar;

import io.sluice.testkit.process.ChildSpec;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.process.JavaCommand;
import io.sluice.testkit.process.RestartableChild;
import io.sluice.testkit.process.RuntimeClasspath;
import io.sluice.testkit.process.ScratchDirectories;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real Apache Pulsar 4.0.7 standalone broker (with its embedded bookie) running as a child JVM,
 * for tests, benchmarks and the demo.
 *
 * <p>The broker runs in its own JVM because in-process it would put Netty 4.1 and an unshaded
 * Pulsar client on the caller's classpath, and a fatal broker error calls {@code System.exit}.
 * Its jars are never on the caller's classpath: the testkit-pulsar-runtime build writes their
 * paths to the resource {@code broker.classpath} next to this class ({@link #runtimeClasspath()}).
 *
 * <p>Each broker gets free loopback ports and its own data directory under the system temp
 * directory; its stdout and stderr (log4j at WARN) go to {@link #logFile()} in that directory.
 * {@link #restart()} keeps ports and data. Like every child of the testkit it is recorded in a PID
 * file, stopped by the JVM's shutdown hook if nobody closes it, and killed by the next start of
 * any child once its JVM is gone (see {@code io.sluice.testkit.process}).
 *
 * <p>Typical use: {@link #shared()} for tests that only send and receive, a broker of one's own
 * ({@code try (PulsarBroker b = PulsarBroker.builder().start())}) for tests that stop, kill,
 * freeze or reconfigure it.
 */
public final class PulsarBroker implements AutoCloseable {

    private static final String MAIN_CLASS = "org.apache.pulsar.PulsarStandaloneStarter";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    /**
     * JVM flags from Pulsar's own launcher, for any Pulsar component started as a child JVM (the
     * broker here, Apache Pulsar's proxy in the benchmarks). Java 17 runs without the add-opens but warns.
     */
    public static final List<String> PULSAR_JVM_FLAGS = List.of(
            "-Djava.net.preferIPv4Stack=true",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "--add-opens",
            "java.base/java.io=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util.zip=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.nio=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.net=ALL-UNNAMED",
            "--add-opens",
            "java.management/sun.management=ALL-UNNAMED",
            "--add-opens",
            "java.base/jdk.internal.platform=ALL-UNNAMED");

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static PulsarBroker shared;

    private final Path dataDir;
    private final int brokerPort;
    private final int webPort;
    private final int externalBindPort;
    private final int sidecarPort;
    private final int tlsPort;
    private final int sidecarTlsPort;
    private final Map<String, String> config;
    /** The super user's token the readiness check sends; {@code null} without authentication. */
    private final String adminToken;

    private final RestartableChild process = new RestartableChild("the broker");
    private boolean closed;

    private PulsarBroker(
            Path dataDir, int[] ports, boolean sidecar, Tls tls, Map<String, String> extraConfig, String adminToken) {
        this.adminToken = adminToken;
        this.dataDir = dataDir;
        this.brokerPort = ports[0];
        this.webPort = ports[1];
        this.externalBindPort = sidecar ? ports[2] : -1;
        this.sidecarPort = sidecar ? ports[3] : -1;
        this.tlsPort = tls != null ? ports[sidecar ? 4 : 2] : -1;
        this.sidecarTlsPort = tls != null && sidecar ? ports[5] : -1;
        this.config = brokerConfig(tls, extraConfig);
    }

    /** Returns a builder for a broker of one's own. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the broker shared by every test of this JVM, starting it on first use (with the
     * sidecar listener enabled). Stop, kill, freeze or close it only if no other test uses it;
     * once closed, the next call starts a new one. The shutdown hook stops it.
     */
    public static synchronized PulsarBroker shared() {
        if (shared == null || shared.isClosed()) {
            shared = builder().sidecarListener().start();
        }
        return shared;
    }

    /**
     * The broker's runtime classpath (pulsar-broker and log4j with their dependencies), for any
     * Pulsar component a caller starts as a child JVM, e.g. Apache Pulsar's proxy in the benchmarks.
     */
    public static String runtimeClasspath() {
        return RuntimeClasspath.read(PulsarBroker.class, "broker.classpath");
    }

    /** The Pulsar binary protocol URL of the broker's own (internal) listener. */
    public String serviceUrl() {
        return "pulsar://127.0.0.1:" + brokerPort;
    }

    /** The port of the broker's own (internal) listener; lookups there answer with this port. */
    public int brokerPort() {
        return brokerPort;
    }

    /**
     * The {@code pulsar+ssl://} URL of the broker's own (internal) TLS listener.
     *
     * @throws IllegalStateException if the broker was built without {@link Builder#tls}
     */
    public String serviceUrlTls() {
        requireTls();
        return "pulsar+ssl://127.0.0.1:" + tlsPort;
    }

    /** The port of {@link #serviceUrlTls()}. */
    public int tlsPort() {
        requireTls();
        return tlsPort;
    }

    /**
     * The port the {@code external} listener advertises as its {@code pulsar+ssl://} address, where
     * a sidecar proxy speaking TLS to clients is expected to listen.
     *
     * @throws IllegalStateException without both {@link Builder#sidecarListener()} and {@link Builder#tls}
     */
    public int sidecarTlsPort() {
        requireSidecar();
        requireTls();
        return sidecarTlsPort;
    }

    /** The port of the broker's HTTP admin API. */
    public int webPort() {
        return webPort;
    }

    /** The base URL of the broker's HTTP admin API, {@code http://127.0.0.1:WEB}. */
    public String webUrl() {
        return "http://127.0.0.1:" + webPort;
    }

    /**
     * The extra port the broker binds for the {@code external} listener (E): a sidecar proxy
     * forwards to it, and lookups arriving on it answer with {@link #sidecarPort()}.
     *
     * @throws IllegalStateException if the broker was built without {@link Builder#sidecarListener()}
     */
    public int externalBindPort() {
        requireSidecar();
        return externalBindPort;
    }

    /**
     * The port the {@code external} listener advertises (S), where a sidecar proxy is expected
     * to listen; nothing listens there until a test starts one.
     *
     * @throws IllegalStateException if the broker was built without {@link Builder#sidecarListener()}
     */
    public int sidecarPort() {
        requireSidecar();
        return sidecarPort;
    }

    /** The PID of the current (or, once stopped, the last) child JVM. */
    public long pid() {
        return process.pid();
    }

    /** Whether the child JVM is alive (frozen counts as alive). */
    public boolean isRunning() {
        return process.isRunning();
    }

    /** The data directory; deleted by {@link #close()}. */
    public Path dataDir() {
        return dataDir;
    }

    /** The broker's log (its stdout and stderr), in the data directory. */
    public Path logFile() {
        return dataDir.resolve("broker.log");
    }

    /** Stops the broker: SIGTERM, then SIGKILL if it has not exited after 5 s. Data is kept. */
    public void stop() {
        process.stop(STOP_GRACE);
    }

    /** Kills the broker with SIGKILL, as a crash would. Data is kept. */
    public void kill() {
        process.kill();
    }

    /**
     * Stops the broker if it runs and starts it again on the same ports and data directories,
     * keeping tenants, namespaces, topics and messages; returns once it is ready.
     */
    public synchronized void restart() {
        requireNotClosed();
        stop();
        launch(false);
    }

    /** Suspends the broker with SIGSTOP: connections stay open but nothing is answered. */
    public void freeze() {
        process.freeze();
    }

    /** Resumes a broker suspended by {@link #freeze()}; does nothing if it is not frozen. */
    public void unfreeze() {
        process.unfreeze();
    }

    /** Stops the broker and deletes its data directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stop();
        closed = true;
        ScratchDirectories.delete(dataDir);
    }

    @Override
    public String toString() {
        return "PulsarBroker[" + serviceUrl() + ", " + webUrl()
                + (sidecarPort > 0 ? ", external bind " + externalBindPort + ", sidecar " + sidecarPort : "")
                + (tlsPort > 0 ? ", TLS " + tlsPort : "")
                + (sidecarTlsPort > 0 ? ", sidecar TLS " + sidecarTlsPort : "")
                + ", " + dataDir + "]";
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private Map<String, String> brokerConfig(Tls tls, Map<String, String> extra) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("clusterName", "standalone");
        c.put("bindAddress", "127.0.0.1");
        // The embedded bookie refuses a loopback address unless it is advertised explicitly.
        c.put("advertisedAddress", "127.0.0.1");
        c.put("brokerServicePort", Integer.toString(brokerPort));
        c.put("webServicePort", Integer.toString(webPort));
        c.put("managedLedgerDefaultEnsembleSize", "1");
        c.put("managedLedgerDefaultWriteQuorum", "1");
        c.put("managedLedgerDefaultAckQuorum", "1");
        c.put("functionsWorkerEnabled", "false");
        c.put("webSocketServiceEnabled", "false");
        c.put("transactionCoordinatorEnabled", "false");
        c.put("brokerShutdownTimeoutMs", "3000");
        c.put("allowAutoTopicCreationType", "non-partitioned");
        c.put("journalSyncData", "false");
        // Tests read topics back to prove nothing acknowledged was lost. Without retention a
        // topic with no subscription loses its closed ledgers once a restart rolls them over.
        c.put("defaultRetentionTimeInMinutes", "-1");
        c.put("defaultRetentionSizeInMB", "-1");
        // Without it every synchronous send waits for the bookie's 2 ms group-commit timer,
        // which would hide the cost of a proxy in latency measurements.
        c.put("journalFlushWhenQueueEmpty", "true");
        c.put("dbStorage_writeCacheMaxSizeMb", "32");
        c.put("dbStorage_readAheadCacheMaxSizeMb", "32");
        if (tls != null) {
            c.put("brokerServicePortTls", Integer.toString(tlsPort));
            c.put("tlsCertificateFilePath", tls.certificate().toString());
            c.put("tlsKeyFilePath", tls.key().toString());
            c.put("tlsTrustCertsFilePath", tls.trustCertificates().toString());
        }
        if (sidecarPort > 0) {
            // Lookups arriving on E (external) answer with the sidecar's port S (and S' for TLS);
            // lookups on the broker port B (internal, also used by the broker's own client) answer
            // with B (and the TLS port T).
            c.put(
                    "advertisedListeners",
                    "internal:pulsar://127.0.0.1:" + brokerPort
                            + (tls != null ? ",internal:pulsar+ssl://127.0.0.1:" + tlsPort : "")
                            + ",external:pulsar://127.0.0.1:" + sidecarPort
                            + (tls != null ? ",external:pulsar+ssl://127.0.0.1:" + sidecarTlsPort : ""));
            c.put("internalListenerName", "internal");
            c.put("bindAddresses", "external:pulsar://127.0.0.1:" + externalBindPort);
        }
        c.putAll(extra);
        return c;
    }

    private synchronized void launch(boolean wipeData) {
        JavaCommand java = JavaCommand.mainClass(MAIN_CLASS)
                .jvmOptions("-Xmx256m")
                .jvmOptions(PULSAR_JVM_FLAGS)
                .jvmOptions("-Dlog4j2.configurationFile=" + dataDir.resolve("log4j2.xml"))
                .classpath(runtimeClasspath())
                .args(
                        "--config",
                        dataDir.resolve("broker.conf").toString(),
                        "--no-functions-worker",
                        "--no-stream-storage",
                        "--metadata-dir",
                        dataDir.resolve("metadata").toString(),
                        "--bookkeeper-dir",
                        dataDir.resolve("bookkeeper").toString());
        if (wipeData) {
            java.args("--wipe-data");
        }
        ChildSpec spec = java.spec("pulsar-broker")
                .logFile(logFile())
                // Relative default paths (e.g. data/standalone/zookeeper, whose mere existence
                // switches the standalone to ZooKeeper mode) land in the data directory.
                .directory(dataDir)
                .scratchDirectory(dataDir)
                .unsetEnvironment("PULSAR_STANDALONE_USE_ZOOKEEPER")
                .build();
        HttpRequest.Builder check = HttpRequest.newBuilder(URI.create(webUrl() + "/admin/v2/namespaces/public"))
                .timeout(Duration.ofSeconds(2));
        if (adminToken != null) {
            check.header("Authorization", "Bearer " + adminToken);
        }
        HttpRequest request = check.build();
        // An open port is not enough: the broker is usable once the standalone has created its
        // default namespace.
        process.start(spec, "listed public/default (GET " + request.uri() + ")", START_TIMEOUT, () -> {
            HttpResponse<String> response = send(request);
            return response.statusCode() == 200 && response.body().contains("\"public/default\"");
        });
    }

    private static HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
    }

    private void requireSidecar() {
        if (sidecarPort < 0) {
            throw new IllegalStateException("this broker has no sidecar listener; build it with sidecarListener()");
        }
    }

    private void requireTls() {
        if (tlsPort < 0) {
            throw new IllegalStateException("this broker has no TLS listener; build it with tls(...)");
        }
    }

    private void requireNotClosed() {
        if (closed) {
            throw new IllegalStateException("the broker is closed");
        }
    }

    private void writeConfigFiles() throws IOException {
        StringBuilder conf = new StringBuilder();
        config.forEach((k, v) -> conf.append(k).append('=').append(v).append('\n'));
        Files.writeString(dataDir.resolve("broker.conf"), conf);
        try (InputStream log4j = PulsarBroker.class.getResourceAsStream("log4j2-broker.xml")) {
            Files.copy(log4j, dataDir.resolve("log4j2.xml"));
        }
    }

    /** Options of a new broker; {@link #start()} launches it. */
    /** A basic user's password: its name and this, e.g. {@code alice-secret}. */
    public static final String BASIC_PASSWORD_SUFFIX = "-secret";

    /**
     * The basic users' {@code htpasswd} lines: APR1 MD5 hashes of {@code alice-secret} and
     * {@code bob-secret}, made with {@code openssl passwd -apr1 -salt sluiceIT}.
     */
    private static final String BASIC_USERS =
            "alice:$apr1$sluiceIT$qOPr53gGwOjOBTWrLNobm1\nbob:$apr1$sluiceIT$zop4/fp5h9IxvC745l3h70\n";

    public static final class Builder {
        private boolean sidecar;
        private Tls tls;
        private final Map<String, String> extraConfig = new LinkedHashMap<>();
        private String adminToken;
        private boolean basic;

        private Builder() {}

        /**
         * Adds an {@code external} listener for a sidecar deployment: the broker binds an extra
         * port E ({@link PulsarBroker#externalBindPort()}) where lookups answer with port S
         * ({@link PulsarBroker#sidecarPort()}), the port a sidecar proxy forwarding to E listens on.
         * The broker port B stays the {@code internal} listener, used by the broker itself.
         *
         * <p>Being a standalone broker advertising a loopback address, it sets
         * {@code proxy_through_service_url} in every lookup answer, on either port: a stock client
         * keeps using its service URL's address and never dials S by itself. A production broker
         * answers without that flag, and its clients connect to the advertised S.
         */
        public Builder sidecarListener() {
            sidecar = true;
            return this;
        }

        /**
         * Adds a TLS listener ({@link PulsarBroker#serviceUrlTls()}) presenting {@code certificate}
         * (PEM, with the key {@code key}) and trusting client certificates of
         * {@code trustCertificates}, without requiring any. With {@link #sidecarListener()}, the
         * {@code external} listener also advertises {@link PulsarBroker#sidecarTlsPort()} as its
         * {@code pulsar+ssl://} address.
         */
        public Builder tls(Path certificate, Path key, Path trustCertificates) {
            tls = new Tls(certificate, key, trustCertificates);
            return this;
        }

        /**
         * Turns on token authentication (Pulsar's {@code AuthenticationProviderToken}, HS256 with
         * {@code secretKey}; authorization off, so every authenticated role may publish and
         * consume): clients need a token {@link PulsarTokens#hs256} signed with the same key. The
         * broker's own clients and the readiness check use a token of the super user {@code admin}.
         */
        public Builder tokenAuthentication(byte[] secretKey) {
            adminToken = PulsarTokens.hs256(secretKey, "admin");
            config("authenticationEnabled", "true");
            config("authenticationProviders", "org.apache.pulsar.broker.authentication.AuthenticationProviderToken");
            config(
                    "tokenSecretKey",
                    "data:;base64," + java.util.Base64.getEncoder().encodeToString(secretKey));
            config("superUserRoles", "admin");
            config("brokerClientAuthenticationPlugin", "org.apache.pulsar.client.impl.auth.AuthenticationToken");
            config("brokerClientAuthenticationParameters", "token:" + adminToken);
            return this;
        }

        /**
         * Turns on basic authentication (Pulsar's {@code AuthenticationProviderBasic}), beside token
         * authentication when {@link #tokenAuthentication} is on too: the users {@code alice} and
         * {@code bob}, whose passwords are {@link #BASIC_PASSWORD_SUFFIX} after their names
         * ({@code alice-secret}); a client logs in with {@code AuthenticationFactory.create(
         * AuthenticationBasic.class.getName(), "{\"userId\":\"alice\",\"password\":\"alice-secret\"}")}.
         */
        public Builder basicAuthentication() {
            basic = true;
            return this;
        }

        /**
         * Sets a key of the broker's configuration file (the keys of Pulsar's
         * {@code standalone.conf}), overriding this class's defaults. Overriding the ports or
         * listeners makes the accessors report wrong values.
         */
        public Builder config(String key, String value) {
            extraConfig.put(key, value);
            return this;
        }

        /**
         * Starts the broker with fresh data and returns once it is ready, i.e. its admin API lists
         * the namespace {@code public/default}.
         *
         * @throws IllegalStateException if it exits or is not ready within 90 s; the message
         *     ends with the tail of the broker's log
         */
        public PulsarBroker start() {
            if (basic) {
                String providers = extraConfig.getOrDefault("authenticationProviders", "");
                config("authenticationEnabled", "true");
                config(
                        "authenticationProviders",
                        (providers.isEmpty() ? "" : providers + ",")
                                + "org.apache.pulsar.broker.authentication.AuthenticationProviderBasic");
                config(
                        "basicAuthConf",
                        "data:;base64,"
                                + Base64.getEncoder().encodeToString(BASIC_USERS.getBytes(StandardCharsets.US_ASCII)));
            }
            int ports = (sidecar ? 4 : 2) + (tls == null ? 0 : sidecar ? 2 : 1);
            PulsarBroker broker = new PulsarBroker(
                    ScratchDirectories.create("pulsar"),
                    FreePorts.loopback(ports),
                    sidecar,
                    tls,
                    extraConfig,
                    adminToken);
            try {
                broker.writeConfigFiles();
                broker.launch(true);
                return broker;
            } catch (IOException e) {
                broker.close();
                throw new UncheckedIOException("cannot write the broker's configuration", e);
            } catch (RuntimeException e) {
                broker.close();
                throw e;
            }
        }
    }

    /** The PEM files of a TLS listener. */
    private record Tls(Path certificate, Path key, Path trustCertificates) {}
}
