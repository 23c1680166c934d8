package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Requests to Sluice's admin REST API. An answer outside 2xx becomes a {@link CliFailure} that
 * passes the server's own {@code {"error": ...}} text through; no answer at all becomes an
 * "unreachable" failure naming the URL.
 */
final class AdminClient {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final String WHERE = "is Sluice's admin API there? (--url or SLUICE_URL)";

    private final URI base;
    private final String token;
    private final HttpClient http;

    /**
     * @param token the bearer token, or {@code null} to send none
     * @param tls   whom to believe over HTTPS, or {@code null} for the JVM's trust store
     */
    AdminClient(URI base, String token, SSLContext tls) {
        this.base = base;
        this.token = token;
        // The admin server speaks HTTP/1.1; no h2c upgrade attempt.
        HttpClient.Builder http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT);
        if (tls != null) {
            http.sslContext(tls);
        }
        this.http = http.build();
    }

    /** The parsed JSON answer of {@code GET path}. */
    JsonNode get(String path) {
        return json("GET", path, send("GET", path, null));
    }

    /** The JSON answer of {@code GET path}, or {@code null} when the server answers 404. */
    JsonNode getIfPresent(String path) {
        HttpResponse<byte[]> response = exchange("GET", path, null);
        if (response.statusCode() == 404) {
            return null;
        }
        return json("GET", path, check("GET", path, response));
    }

    /** The body of {@code GET path} as the server wrote it. */
    byte[] getBytes(String path) {
        return send("GET", path, null);
    }

    /** {@code PUT path} with a JSON body; the parsed JSON answer. */
    JsonNode put(String path, byte[] json) {
        return json("PUT", path, send("PUT", path, json));
    }

    /** {@code DELETE path}. */
    void delete(String path) {
        send("DELETE", path, null);
    }

    /** The base URL, for messages. */
    URI base() {
        return base;
    }

    private byte[] send(String method, String path, byte[] body) {
        return check(method, path, exchange(method, path, body));
    }

    private HttpResponse<byte[]> exchange(String method, String path, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json")
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpConnectTimeoutException e) {
            throw CliFailure.unreachable(
                    "cannot connect to " + base + ": no answer within " + CONNECT_TIMEOUT.toSeconds() + " s; " + WHERE,
                    e);
        } catch (HttpTimeoutException e) {
            throw CliFailure.unreachable(
                    method + " " + base + path + " got no answer within " + REQUEST_TIMEOUT.toSeconds() + " s", e);
        } catch (IOException e) {
            throw CliFailure.unreachable("cannot connect to " + base + ": " + describe(e) + "; " + WHERE, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliFailure.unreachable("interrupted while waiting for " + base, e);
        }
    }

    /** What went wrong, in words: the JDK's client often wraps the useful exception in one without a message. */
    private static String describe(IOException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnresolvedAddressException || cause instanceof UnknownHostException) {
                return "unknown host";
            }
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConnectException) {
                return "connection refused";
            }
        }
        Throwable cause = e;
        while (cause.getCause() != null
                && (cause.getMessage() == null || cause.getMessage().isBlank())) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        String kind = cause.getClass().getSimpleName();
        return message == null || message.isBlank() ? kind : kind + " " + message;
    }

    private byte[] check(String method, String path, HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return response.body();
        }
        String message =
                "the server refused " + method + " " + path + " (" + status + "): " + errorText(response.body());
        if (status == 401) {
            message += "; give the admin token with --token-file or SLUICE_TOKEN_FILE";
        }
        throw CliFailure.refused(message);
    }

    /** The server's {@code error} field, or the start of whatever else it sent. */
    private static String errorText(byte[] body) {
        try {
            JsonNode error = Json.read(body).get("error");
            if (error != null && error.isTextual()) {
                return error.textValue();
            }
        } catch (IOException notJson) {
            // Not Sluice's JSON error: show what came instead.
        }
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            return "no details given";
        }
        int newline = text.indexOf('\n');
        String first = newline < 0 ? text : text.substring(0, newline);
        return first.length() > 200 ? first.substring(0, 200) + "..." : first;
    }

    private JsonNode json(String method, String path, byte[] body) {
        try {
            return Json.read(body);
        } catch (IOException e) {
            throw CliFailure.refused(
                    "the answer to " + method + " " + base + path + " is not JSON: is this Sluice's admin API?");
        }
    }
}
