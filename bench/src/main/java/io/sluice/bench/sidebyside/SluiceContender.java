package io.sluice.bench.sidebyside;

import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Sluice's executable jar running as a child process in front of a broker, as an operator runs
 * it, with its limits set through its REST API.
 */
final class SluiceContender implements TopicLimits, AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final SluiceProcess process;
    private final int port;
    private final int adminPort;

    private SluiceContender(SluiceProcess process, int port, int adminPort) {
        this.process = process;
        this.port = port;
        this.adminPort = adminPort;
    }

    /**
     * Starts {@code sluice.jar} with {@code jvmOptions} (and {@code options} besides those naming
     * its broker, ports and files) and returns once it logs that it is ready.
     */
    static SluiceContender start(
            Path sluiceJar, String brokerUrl, List<String> jvmOptions, Path workDir, String... options) {
        int[] ports = FreePorts.loopback(2);
        SluiceProcess process = SluiceProcess.builder(sluiceJar)
                .jvmOptions(jvmOptions)
                .options(
                        "--upstream",
                        brokerUrl,
                        "--listen",
                        "127.0.0.1:" + ports[0],
                        "--admin",
                        "127.0.0.1:" + ports[1],
                        "--limits-file",
                        workDir.resolve("sluice-limits.json").toString())
                .options(options)
                .logFile(workDir.resolve("sluice.log"))
                .start();
        return new SluiceContender(process, ports[0], ports[1]);
    }

    Contender contender() {
        return contender("Sluice", "pulsar");
    }

    /** This Sluice under another name, its clients using {@code scheme} ({@code pulsar+ssl} when it speaks TLS). */
    Contender contender(String name, String scheme) {
        return new Contender(name, scheme + "://127.0.0.1:" + port, process.pid());
    }

    @Override
    public String adminUrl() {
        return "http://127.0.0.1:" + adminPort;
    }

    @Override
    public void deleteTopicLimit(String topic) {
        try {
            send(HttpRequest.newBuilder(topicUri(topic)).DELETE().build());
        } catch (IllegalStateException notThere) {
            // 404: no limit to remove.
        }
    }

    @Override
    public void putTopicLimit(String topic, String limitJson) {
        send(HttpRequest.newBuilder(topicUri(topic))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(limitJson))
                .build());
    }

    private URI topicUri(String topic) {
        // persistent://public/default/x -> /api/v1/limits/topics/persistent/public/default/x
        return URI.create("http://127.0.0.1:" + adminPort + "/api/v1/limits/topics/" + topic.replace("://", "/"));
    }

    /** Sends an admin API request; returns the body of its 2xx answer, else throws naming the answer. */
    static String send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(request.method() + " " + request.uri() + " answered "
                        + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** SIGTERM, then SIGKILL if Sluice has not exited after 10 s. */
    @Override
    public void close() {
        process.stop(STOP_GRACE);
        process.close();
    }
}
