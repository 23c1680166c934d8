package io.sluice.bench.sidebyside;

import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Sluice's executable jar as a child process in front of a Kafka cluster, as an operator runs it:
 * a bootstrap port and, after it, a port per broker node.
 */
final class KafkaSluiceContender implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final SluiceProcess process;
    private final int port;

    private KafkaSluiceContender(SluiceProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts {@code sluice.jar} for {@code bootstrapServers} with room for {@code nodes} node ports. */
    static KafkaSluiceContender start(
            Path sluiceJar, String bootstrapServers, int nodes, List<String> jvmOptions, Path workDir) {
        int port = FreePorts.loopbackRange(2 + nodes);
        SluiceProcess process = SluiceProcess.builder(sluiceJar)
                .jvmOptions(jvmOptions)
                .options(
                        "--kafka-upstream",
                        bootstrapServers,
                        "--kafka-listen",
                        "127.0.0.1:" + port,
                        "--kafka-advertised-host",
                        "127.0.0.1",
                        "--kafka-node-port-base",
                        Integer.toString(port),
                        "--admin",
                        "127.0.0.1:" + FreePorts.loopback(),
                        "--limits-file",
                        workDir.resolve("sluice-kafka-limits.json").toString())
                .logFile(workDir.resolve("sluice-kafka.log"))
                .start();
        return new KafkaSluiceContender(process, port);
    }

    /** Sluice as a contender: clients bootstrap from its port. */
    Contender contender() {
        return new Contender("Sluice", "127.0.0.1:" + port, process.pid());
    }

    @Override
    public void close() {
        process.stop(STOP_GRACE);
        process.close();
    }
}
