package io.sluice.testkit.kafka;

import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.ChildSpec;
import io.sluice.testkit.process.Readiness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * One node of a {@link KafkaCluster} (the controller or a broker): its directory, its
 * {@code server.properties}, and the child JVM running it while it runs. Its ports, data and log
 * stay the same across restarts.
 */
final class KafkaNode {

    /** The line kafka.server.KafkaRaftServer logs once a broker is registered and unfenced. */
    private static final String READY_LINE = "Kafka Server started";

    private final int id;
    private final Path dir;
    private final ChildSpec spec;
    private ChildProcess process;

    KafkaNode(int id, Path dir, Map<String, String> config, ChildSpec.Builder launch) {
        this.id = id;
        this.dir = dir;
        try {
            Files.createDirectories(dir);
            StringBuilder properties = new StringBuilder();
            config.forEach((k, v) -> properties.append(k).append('=').append(v).append('\n'));
            Files.writeString(serverProperties(dir), properties);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the configuration of Kafka node " + id, e);
        }
        this.spec = launch.logFile(dir.resolve("kafka.log")).build();
    }

    static Path serverProperties(Path nodeDir) {
        return nodeDir.resolve("server.properties");
    }

    int id() {
        return id;
    }

    Path logFile() {
        return dir.resolve("kafka.log");
    }

    synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException("Kafka node " + id + " never ran");
        }
        return process.pid();
    }

    /** Starts the JVM; {@link #awaitReady} waits for it. */
    synchronized void launch() {
        if (isRunning()) {
            throw new IllegalStateException("Kafka node " + id + " is already running");
        }
        process = spec.start();
    }

    void awaitReady(Duration timeout) {
        ChildProcess started;
        synchronized (this) {
            started = process;
        }
        Readiness.await(started, "logged '" + READY_LINE + "'", timeout, Readiness.logLine(started, READY_LINE));
    }

    synchronized void stop(Duration grace) {
        if (process != null) {
            process.stop(grace);
        }
    }

    synchronized void kill() {
        if (process != null) {
            process.kill();
        }
    }

    synchronized void freeze() {
        if (!isRunning()) {
            throw new IllegalStateException("Kafka node " + id + " is not running");
        }
        process.freeze();
    }

    synchronized void unfreeze() {
        if (process != null) {
            process.unfreeze();
        }
    }
}
