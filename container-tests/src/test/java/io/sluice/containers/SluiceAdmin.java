package io.sluice.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Sluice's admin port as an operator's HTTP client sees it: REST API, probes, metrics. */
final class SluiceAdmin {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final URI base;
    private final String token;

    /** @param token the admin token, sent on every request */
    SluiceAdmin(URI base, String token) {
        this.base = base;
        this.token = token;
    }

    HttpResponse<String> get(String path) {
        return send(request(path).GET());
    }

    HttpResponse<String> put(String path, String json) {
        return send(request(path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> delete(String path) {
        return send(request(path).DELETE());
    }

    /**
     * The value of a counter or gauge for one topic in {@code /metrics}, whatever its other labels;
     * 0 when the topic has no such series.
     */
    double metric(String name, String topic) {
        String topicLabel = "topic=\"" + topic + "\"";
        return get("/metrics")
                .body()
                .lines()
                .filter(line -> line.startsWith(name + "{") && line.contains(topicLabel))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** The value of one series of {@code /metrics}, name and labels exactly as exposed; 0 when absent. */
    double series(String series) {
        return get("/metrics")
                .body()
                .lines()
                .filter(line -> line.startsWith(series + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst()
                .orElse(0);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        HttpRequest built = request.build();
        try {
            return HTTP.send(built, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(built.method() + " " + built.uri() + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
