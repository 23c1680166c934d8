package io.sluice.testbroker;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Apache Pulsar 4.0.7 standalone broker (with its embedded bookie) running as a child JVM,
 * for tests, benchmarks and the demo.
 *
 * <p>The broker runs in its own JVM because in-process it would put Netty 4.1 and an unshaded
 * Pulsar client on the caller's classpath, and a fatal broker error calls {@code System.exit}.
 * Its jars are never on the caller's classpath: the build writes their paths to the resource
 * {@code broker.classpath} next to this class.
 *
 * <p>Each broker gets free loopback ports and its own data directory under the system temp
 * directory; its stdout and stderr (log4j at WARN) go to {@link #logFile()} in that directory.
 * {@link #restart()} keeps ports and data. A JVM shutdown hook closes every broker this JVM
 * started.
 *
 * <p>Leftovers: a test JVM that is SIGKILLed cannot run its shutdown hook. Each running child
 * is therefore recorded as {@code <pid>.pid} in {@link #pidDirectory()}
 * ({@code ${java.io.tmpdir}/sluice-test-brokers}); the file holds one line,
 * {@code <broker pid> <owner JVM pid> <data dir>}, and is removed when the broker stops.
 * Starting a broker first calls {@link #killOrphans()}. A script can do the same with
 * <pre>{@code
 * for f in /tmp/sluice-test-brokers/*.pid; do
 *   [ -e "$f" ] || continue
 *   read pid owner dir < "$f"
 *   kill -0 "$owner" 2>/dev/null && continue   # its test JVM still runs
 *   grep -qs PulsarStandaloneStarter /proc/$pid/cmdline && kill -9 "$pid"
 *   rm -rf "$dir" "$f"
 * done
 * }</pre>
 *
 * <p>Typical use: {@link #shared()} for tests that only send and receive, a broker of one's own
 * ({@code try (PulsarBroker b = PulsarBroker.builder().start())}) for tests that stop, kill,
 * freeze or reconfigure it.
 */
public final class PulsarBroker implements AutoCloseable {

    private static final String MAIN_CLASS = "org.apache.pulsar.PulsarStandaloneStarter";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    private static final int LOG_TAIL_LINES = 60;

    /**
     * JVM flags from Pulsar's own launcher, for any Pulsar component started as a child JVM (the
     * broker here, Apache Pulsar's proxy in the benchmarks). Java 17 runs without the add-opens but warns.
     */
    public static final List<String> PULSAR_JVM_FLAGS = List.of(
            "-Djava.net.preferIPv4Stack=true",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.util.zip=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens", "java.base/sun.net=ALL-UNNAMED",
            "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.platform=ALL-UNNAMED");

    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    /** Brokers of this JVM that are not closed yet; the shutdown hook closes them. */
    private static final Set<PulsarBroker> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            List<PulsarBroker> brokers = List.copyOf(LIVE);
            // SIGTERM all first, without the lock, which a start still waiting for readiness
            // holds; that start then sees its process exit and gives up.
            brokers.forEach(PulsarBroker::terminate);
            brokers.forEach(PulsarBroker::close);
        }, "sluice-test-broker-shutdown"));
    }

    private static PulsarBroker shared;

    private final Path dataDir;
    private final int brokerPort;
    private final int webPort;
    private final int externalBindPort;
    private final int sidecarPort;
    private final Map<String, String> config;

    private volatile Process process;
    private boolean frozen;
    private boolean closed;

    private PulsarBroker(Path dataDir, int[] ports, boolean sidecar, Map<String, String> extraConfig) {
        this.dataDir = dataDir;
        this.brokerPort = ports[0];
        this.webPort = ports[1];
        this.externalBindPort = sidecar ? ports[2] : -1;
        this.sidecarPort = sidecar ? ports[3] : -1;
        this.config = brokerConfig(extraConfig);
    }

    /** Returns a builder for a broker of one's own. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the broker shared by every test of this JVM, starting it on first use (with the
     * sidecar listener enabled). Stop, kill, freeze or close it only if no other test uses it;
     * once closed, the next call starts a new one. The shutdown hook closes it.
     */
    public static synchronized PulsarBroker shared() {
        if (shared == null || shared.isClosed()) {
            shared = builder().sidecarListener().start();
        }
        return shared;
    }

    /** The directory holding one {@code <pid>.pid} file per running child broker on this machine. */
    public static Path pidDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"), "sluice-test-brokers");
    }

    /**
     * Kills the brokers recorded in {@link #pidDirectory()} whose owner JVM is gone (it was
     * SIGKILLed and could not run its shutdown hook) and deletes their data directories.
     * Brokers of JVMs that are still running are left alone.
     */
    public static void killOrphans() {
        Path dir = pidDirectory();
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.pid")) {
            for (Path file : files) {
                try {
                    killIfOrphan(file);
                } catch (IOException | RuntimeException e) {
                    // Best effort: a leftover must not stop a new broker from starting.
                    System.err.println("sluice test broker: could not clean up after " + file + ": " + e);
                }
            }
        } catch (IOException e) {
            System.err.println("sluice test broker: could not list " + dir + ": " + e);
        }
    }

    private static void killIfOrphan(Path pidFile) throws IOException {
        String[] fields = Files.readString(pidFile).trim().split(" ", 3);
        if (fields.length < 3) {
            return; // Still being written by a broker that is starting.
        }
        long owner = Long.parseLong(fields[1]);
        if (ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
            return;
        }
        // Only kill what still is a broker: the PID may have been reused since.
        ProcessHandle.of(Long.parseLong(fields[0]))
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains(MAIN_CLASS)).orElse(false))
                .ifPresent(p -> {
                    p.destroyForcibly();
                    p.onExit().join();
                });
        deleteRecursively(Path.of(fields[2]));
        Files.deleteIfExists(pidFile);
    }

    /** The Pulsar binary protocol URL of the broker's own (internal) listener. */
    public String serviceUrl() {
        return "pulsar://127.0.0.1:" + brokerPort;
    }

    /** The port of the broker's own (internal) listener; lookups there answer with this port. */
    public int brokerPort() {
        return brokerPort;
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
    public synchronized long pid() {
        return process.pid();
    }

    /** Whether the child JVM is alive (frozen counts as alive). */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
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
    public synchronized void stop() {
        if (!isRunning()) {
            return;
        }
        // A stopped (frozen) process would only act on SIGTERM once continued.
        unfreeze();
        process.destroy();
        if (!waitForExit(STOP_GRACE)) {
            process.destroyForcibly();
            waitForExit(STOP_GRACE);
        }
        removePidFile();
    }

    /** Kills the broker with SIGKILL, as a crash would. Data is kept. */
    public synchronized void kill() {
        if (!isRunning()) {
            return;
        }
        process.destroyForcibly();
        waitForExit(STOP_GRACE);
        frozen = false;
        removePidFile();
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
    public synchronized void freeze() {
        requireRunning();
        signal("STOP");
        frozen = true;
    }

    /** Resumes a broker suspended by {@link #freeze()}; does nothing if it is not frozen. */
    public synchronized void unfreeze() {
        if (frozen && isRunning()) {
            signal("CONT");
        }
        frozen = false;
    }

    /** Stops the broker and deletes its data directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        stop();
        closed = true;
        LIVE.remove(this);
        deleteRecursively(dataDir);
    }

    @Override
    public String toString() {
        return "PulsarBroker[" + serviceUrl() + ", " + webUrl()
                + (sidecarPort > 0 ? ", external bind " + externalBindPort + ", sidecar " + sidecarPort : "")
                + ", " + dataDir + "]";
    }

    private void terminate() {
        Process p = process;
        if (p != null) {
            p.destroy();
        }
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private Map<String, String> brokerConfig(Map<String, String> extra) {
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
        if (sidecarPort > 0) {
            // Lookups arriving on E (external) answer with the sidecar's port S; lookups on the
            // broker port B (internal, also used by the broker's own client) answer with B.
            c.put("advertisedListeners", "internal:pulsar://127.0.0.1:" + brokerPort
                    + ",external:pulsar://127.0.0.1:" + sidecarPort);
            c.put("internalListenerName", "internal");
            c.put("bindAddresses", "external:pulsar://127.0.0.1:" + externalBindPort);
        }
        c.putAll(extra);
        return c;
    }

    private synchronized void launch(boolean wipeData) {
        killOrphans();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.addAll(PULSAR_JVM_FLAGS);
        command.add("-Dlog4j2.configurationFile=" + dataDir.resolve("log4j2.xml"));
        command.add(MAIN_CLASS);
        command.addAll(List.of(
                "--config", dataDir.resolve("broker.conf").toString(),
                "--no-functions-worker",
                "--no-stream-storage",
                "--metadata-dir", dataDir.resolve("metadata").toString(),
                "--bookkeeper-dir", dataDir.resolve("bookkeeper").toString()));
        if (wipeData) {
            command.add("--wipe-data");
        }
        ProcessBuilder pb = new ProcessBuilder(command)
                // Relative default paths (e.g. data/standalone/zookeeper, whose mere existence
                // switches the standalone to ZooKeeper mode) land in the data directory.
                .directory(dataDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
        // Through the environment rather than -cp: 300 jar paths would swamp every `ps` listing.
        pb.environment().put("CLASSPATH", brokerClasspath());
        pb.environment().remove("PULSAR_STANDALONE_USE_ZOOKEEPER");
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the broker JVM: " + command.get(0), e);
        }
        frozen = false;
        writePidFile();
        awaitReady();
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        HttpRequest request = HttpRequest.newBuilder(URI.create(webUrl() + "/admin/v2/namespaces/public"))
                .timeout(Duration.ofSeconds(2))
                .build();
        while (true) {
            if (!process.isAlive()) {
                removePidFile();
                throw new IllegalStateException("the broker JVM exited with code " + process.exitValue()
                        + " before it was ready" + logTail());
            }
            try {
                HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                // An open port is not enough: the broker is usable once the standalone has
                // created its default namespace.
                if (response.statusCode() == 200 && response.body().contains("\"public/default\"")) {
                    return;
                }
            } catch (IOException e) {
                // Not listening yet.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
                throw new IllegalStateException("interrupted while waiting for the broker", e);
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new IllegalStateException("the broker was not ready after " + START_TIMEOUT.toSeconds()
                        + " s (GET " + request.uri() + " did not list public/default)" + logTail());
            }
            sleep(200);
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile(), StandardCharsets.UTF_8);
            List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
            return "; last lines of " + logFile() + ":\n" + String.join("\n", tail);
        } catch (IOException e) {
            return "; no broker log at " + logFile() + " (" + e + ")";
        }
    }

    private boolean waitForExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker to exit", e);
        }
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name, e);
        }
    }

    private Path pidFile() {
        return pidDirectory().resolve(process.pid() + ".pid");
    }

    private void writePidFile() {
        try {
            Files.createDirectories(pidDirectory());
            Files.writeString(pidFile(), process.pid() + " " + ProcessHandle.current().pid() + " " + dataDir + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the broker's PID in " + pidDirectory(), e);
        }
    }

    private void removePidFile() {
        try {
            Files.deleteIfExists(pidFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void requireSidecar() {
        if (sidecarPort < 0) {
            throw new IllegalStateException("this broker has no sidecar listener; build it with sidecarListener()");
        }
    }

    private void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException("the broker is not running");
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
        try (InputStream log4j = resource("log4j2-broker.xml")) {
            Files.copy(log4j, dataDir.resolve("log4j2.xml"));
        }
    }

    /** The broker's classpath, checked so that a missing jar fails here and not in the child. */
    private static String brokerClasspath() {
        String classpath;
        try (InputStream in = resource("broker.classpath")) {
            classpath = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Optional<String> missing = Stream.of(classpath.split(java.io.File.pathSeparator))
                .filter(jar -> !Files.isRegularFile(Path.of(jar)))
                .findFirst();
        if (missing.isPresent()) {
            throw new IllegalStateException("the broker classpath names a missing jar, " + missing.get()
                    + "; rebuild test-broker (mvn -pl test-broker install) to resolve it");
        }
        return classpath;
    }

    private static InputStream resource(String name) {
        InputStream in = PulsarBroker.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("resource " + name + " is missing next to " + PulsarBroker.class.getName()
                    + "; it is generated by the test-broker build");
        }
        return in;
    }

    /**
     * Free loopback ports, all held open until every one is chosen so that they differ; for any
     * child process a test or benchmark starts on ports of its choosing.
     */
    public static int[] freePorts(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find free ports", e);
        } finally {
            for (ServerSocket socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // Nothing to do: the port was only probed.
                }
            }
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Options of a new broker; {@link #start()} launches it. */
    public static final class Builder {
        private boolean sidecar;
        private final Map<String, String> extraConfig = new LinkedHashMap<>();

        private Builder() {
        }

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
            Path dataDir;
            try {
                dataDir = Files.createTempDirectory("sluice-broker-");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the broker's data directory", e);
            }
            PulsarBroker broker = new PulsarBroker(dataDir, freePorts(sidecar ? 4 : 2), sidecar, extraConfig);
            LIVE.add(broker);
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
}
