package io.sluice.bench.sidebyside;

import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Sluice's executable jar as a child process in front of a Kafka cluster, as an operator runs it:
 * a bootstrap port and, after it, a port per broker node; its limits set and its counters read over
 * its admin API.
 */
final class KafkaSluiceContender implements TopicLimits, AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final SluiceProcess process;
    private final int port;
    private final int adminPort;

    private KafkaSluiceContender(SluiceProcess process, int port, int adminPort) {
        this.process = process;
        this.port = port;
        this.adminPort = adminPort;
    }

    /**
     * Starts {@code sluice.jar} for {@code bootstrapServers} with room for {@code nodes} node ports,
     * and {@code moreOptions} (TLS, for one) after the suite's own.
     */
    static KafkaSluiceContender start(
            Path sluiceJar,
            String bootstrapServers,
            int nodes,
            List<String> jvmOptions,
            Path workDir,
            String... moreOptions) {
        int port = FreePorts.loopbackRange(2 + nodes);
        int adminPort = FreePorts.loopback();
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
                        "127.0.0.1:" + adminPort,
                        "--limits-file",
                        workDir.resolve("sluice-kafka-limits.json").toString())
                .options(moreOptions)
                .logFile(workDir.resolve("sluice-kafka.log"))
                .start();
        return new KafkaSluiceContender(process, port, adminPort);
    }

    /** The bootstrap address clients give to reach the cluster through Sluice. */
    String bootstrap() {
        return "127.0.0.1:" + port;
    }

    @Override
    public String adminUrl() {
        return "http://127.0.0.1:" + adminPort;
    }

    @Override
    public void deleteTopicLimit(String topic) {
        String path = "/api/v1/limits/kafka/topics/" + URLEncoder.encode(topic, StandardCharsets.UTF_8);
        try {
            SluiceContender.send(HttpRequest.newBuilder(admin(path)).DELETE().build());
        } catch (IllegalStateException notThere) {
            // 404: no limit to remove.
        }
    }

    @Override
    public void putTopicLimit(String topic, String limitJson) {
        String path = "/api/v1/limits/kafka/topics/" + URLEncoder.encode(topic, StandardCharsets.UTF_8);
        SluiceContender.send(HttpRequest.newBuilder(admin(path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(limitJson))
                .build());
    }

    /**
     * One of Sluice's per-topic counters for a Kafka topic, e.g. {@code sluice_publish_messages_total}
     * (docs/REFERENCE.md, Metrics); 0 before the topic has a series.
     */
    double topicCounter(String metric, String topic) {
        String series = metric + "{";
        String label = "topic=\"" + topic + "\"";
        for (String line : SluiceContender.send(
                        HttpRequest.newBuilder(admin("/metrics")).GET().build())
                .lines()
                .toList()) {
            if (line.startsWith(series) && line.contains("protocol=\"kafka\"") && line.contains(label)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    /** Whether {@code GET /api/v1/throttled} lists a Kafka client throttled on {@code topic} now. */
    boolean throttled(String topic) {
        String body = SluiceContender.send(
                HttpRequest.newBuilder(admin("/api/v1/throttled")).GET().build());
        return body.replace(" ", "").contains("\"topic\":\"" + topic + "\"");
    }

    private URI admin(String path) {
        return URI.create("http://127.0.0.1:" + adminPort + path);
    }

    /** Sluice as a contender: clients bootstrap from its port. */
    Contender contender() {
        return contender("Sluice");
    }

    /** Sluice as a contender named {@code name}. */
    Contender contender(String name) {
        return new Contender(name, "127.0.0.1:" + port, process.pid());
    }

    @Override
    public void close() {
        process.stop(STOP_GRACE);
        process.close();
    }
}
