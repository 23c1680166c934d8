package io.sluice.testkit.kafka;

import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.ChildSpec;
import io.sluice.testkit.process.Readiness;
import io.sluice.testkit.process.RestartableChild;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * One node of a {@link KafkaCluster} (the controller or a broker): its directory, its
 * {@code server.properties}, and the child JVM running it ({@link #process()}). Its ports, data and log
 * stay the same across restarts.
 */
final class KafkaNode {

    /** The line kafka.server.KafkaRaftServer logs once a broker is registered and unfenced. */
    private static final String READY_LINE = "Kafka Server started";

    private final Path dir;
    private final ChildSpec spec;
    private final RestartableChild process;

    KafkaNode(int id, Path dir, Map<String, String> config, ChildSpec.Builder launch) {
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
        this.process = new RestartableChild("Kafka node " + id);
    }

    static Path serverProperties(Path nodeDir) {
        return nodeDir.resolve("server.properties");
    }

    Path logFile() {
        return dir.resolve("kafka.log");
    }

    RestartableChild process() {
        return process;
    }

    /** Starts the JVM; {@link #awaitReady} waits for it. */
    void launch() {
        process.launch(spec);
    }

    void awaitReady(Duration timeout) {
        ChildProcess started = process.current();
        Readiness.await(started, "logged '" + READY_LINE + "'", timeout, Readiness.logLine(started, READY_LINE));
    }
}
