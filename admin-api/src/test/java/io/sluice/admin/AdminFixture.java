package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.adaptive.AdaptiveRates;
import io.sluice.admin.http.AdminToken;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.LatencyWindow;
import io.sluice.cluster.ClusterStatus;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.SharedLimits;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A real admin server on a free port over a real limits store (in a test's temporary directory)
 * and a real quota engine, with an HTTP/1.1 client to talk to it. Admission control is only
 * there when a test passes a controller.
 */
final class AdminFixture implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** The scopes of the two front ends, as the server registers them. */
    static final ScopeCatalogue SCOPES = ScopeCatalogue.of(PulsarScopes.DECLARED, KafkaScopes.DECLARED);

    final Path limitsFile;
    final QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM);
    /** The Pulsar upstream's publish latency, which {@link #adaptive} follows; a test records into it and ticks. */
    final LatencyWindow pulsarLatency = new LatencyWindow();

    final AdaptiveRates adaptive = new AdaptiveRates(engine, Map.of("pulsar", pulsarLatency), NanoClock.SYSTEM);
    final LimitsStore store;
    final ThrottleLedger ledger = new ThrottleLedger(Clock.systemUTC());
    final TopicActivity activity = new TopicActivity(Duration.ofMinutes(10));
    final ProxyStats stats = new ProxyStats("pulsar");
    /** A second front end's counters, which count requests by kind. */
    final ProxyStats kafkaStats = new ProxyStats("kafka", List.of("produce", "fetch"));

    final AtomicBoolean ready = new AtomicBoolean(true);
    final AdminServer server;
    final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final String token;

    private AdminFixture(
            Path dir, String token, int metricsMaxTopics, AdmissionController admission, Duration idleTimeout)
            throws IOException {
        this(dir, token, null, metricsMaxTopics, admission, idleTimeout, null, ClusterStatus::standalone);
    }

    private AdminFixture(
            Path dir,
            String token,
            String readToken,
            int metricsMaxTopics,
            AdmissionController admission,
            Duration idleTimeout,
            SharedLimits shared,
            Supplier<ClusterStatus> cluster)
            throws IOException {
        this.limitsFile = dir.resolve("sluice-limits.json");
        this.store = shared == null
                ? LimitsStore.open(limitsFile, AdminFixture.SCOPES, engine::update)
                : LimitsStore.openShared(shared, limitsFile, AdminFixture.SCOPES, engine::update);
        this.token = token;
        this.server = AdminServer.builder()
                .bind("127.0.0.1", 0)
                .adminToken(token)
                .readToken(readToken == null ? null : AdminToken.of(readToken))
                .limits(store)
                .throttleLedger(ledger)
                .topicActivity(activity)
                .proxyStats(stats, kafkaStats)
                .admission(admission)
                .ready(ready::get)
                .metricsMaxTopics(metricsMaxTopics)
                .idleTimeout(idleTimeout)
                .cluster(cluster)
                .adaptive(adaptive::status)
                .build();
        server.start();
    }

    static AdminFixture start(Path dir) throws IOException {
        return new AdminFixture(dir, null, 1000, null, AdminServer.DEFAULT_IDLE_TIMEOUT);
    }

    static AdminFixture withToken(Path dir, String token) throws IOException {
        return new AdminFixture(dir, token, 1000, null, AdminServer.DEFAULT_IDLE_TIMEOUT);
    }

    static AdminFixture withMetricsMaxTopics(Path dir, int max) throws IOException {
        return new AdminFixture(dir, null, max, null, AdminServer.DEFAULT_IDLE_TIMEOUT);
    }

    static AdminFixture withIdleTimeout(Path dir, Duration timeout) throws IOException {
        return new AdminFixture(dir, null, 1000, null, timeout);
    }

    /** With an admin token and a read-only token. */
    static AdminFixture withTokens(Path dir, String token, String readToken) throws IOException {
        return new AdminFixture(
                dir, token, readToken, 1000, null, AdminServer.DEFAULT_IDLE_TIMEOUT, null, ClusterStatus::standalone);
    }

    /** @param token the admin token, or {@code null} for none */
    static AdminFixture withAdmission(Path dir, String token, AdmissionController admission) throws IOException {
        return new AdminFixture(dir, token, 1000, admission, AdminServer.DEFAULT_IDLE_TIMEOUT);
    }

    /** A Sluice of a cluster, its limits in {@code shared}. */
    static AdminFixture inCluster(Path dir, SharedLimits shared, Supplier<ClusterStatus> cluster) throws IOException {
        return new AdminFixture(dir, null, null, 1000, null, AdminServer.DEFAULT_IDLE_TIMEOUT, shared, cluster);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    /** A request to {@code path} with {@code token}. */
    HttpRequest.Builder request(String path, String token) {
        return HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token);
    }

    /** A request to {@code path}, with the fixture's token when it has one. */
    HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10));
        if (token != null) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder;
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path) {
        return send(request(path).GET().build());
    }

    HttpResponse<String> put(String path, String json) {
        return send(request(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    HttpResponse<String> delete(String path) {
        return send(request(path).DELETE().build());
    }

    byte[] fileBytes() throws IOException {
        return Files.readAllBytes(limitsFile);
    }

    /** A response body as a JSON tree. */
    static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    /** The message of an error response, checking its shape is exactly {@code {"error": "..."}}. */
    static String error(HttpResponse<String> response) {
        JsonNode body = json(response);
        if (body.size() != 1 || !body.path("error").isTextual()) {
            throw new AssertionError("not an error body: " + response.body());
        }
        return body.get("error").asText();
    }

    @Override
    public void close() {
        server.close();
    }
}
