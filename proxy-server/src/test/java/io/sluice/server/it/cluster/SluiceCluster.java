package io.sluice.server.it.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sluices as child processes ({@code sluice.jar}) in front of one broker, sharing their limits
 * through one Redis, each with its own limits file, ports and admin API; and what a test reads
 * of them: their forwarding counters, their cluster status, their limits.
 */
final class SluiceCluster implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern PUBLISHED = Pattern.compile(
            "^sluice_publish_messages_total\\{protocol=\"pulsar\",topic=\"([^\"]+)\"} (\\S+)$", Pattern.MULTILINE);

    /** One Sluice: its process, its ports and its limits file. */
    static final class Member {
        final SluiceProcess process;
        final int port;
        final int adminPort;
        final Path limitsFile;

        Member(SluiceProcess process, int port, int adminPort, Path limitsFile) {
            this.process = process;
            this.port = port;
            this.adminPort = adminPort;
            this.limitsFile = limitsFile;
        }

        String serviceUrl() {
            return "pulsar://127.0.0.1:" + port;
        }

        URI admin(String path) {
            return URI.create("http://127.0.0.1:" + adminPort + path);
        }
    }

    final List<Member> members = new ArrayList<>();
    private final Path dir;

    private SluiceCluster(Path dir) {
        this.dir = dir;
    }

    /**
     * Starts {@code count} Sluices in front of {@code upstream} that share their limits and buckets
     * through {@code redisUri}, syncing every {@code intervalMillis}.
     */
    static SluiceCluster sharing(int count, String upstream, String redisUri, long intervalMillis) throws Exception {
        return start(
                count,
                upstream,
                "--cluster-store",
                redisUri,
                "--cluster-sync-interval",
                intervalMillis + "ms",
                "--limits-source",
                "store");
    }

    /** Starts {@code count} Sluices in parallel, each with {@code options} besides its own ports and limits file. */
    static SluiceCluster start(int count, String upstream, String... options) throws Exception {
        SluiceCluster cluster = new SluiceCluster(Files.createTempDirectory("sluice-cluster"));
        ExecutorService starters = Executors.newFixedThreadPool(count);
        try {
            List<Future<Member>> started = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                started.add(starters.submit(() -> cluster.launch(index, upstream, options)));
            }
            for (Future<Member> member : started) {
                cluster.members.add(member.get());
            }
            return cluster;
        } catch (Exception e) {
            cluster.close();
            throw e;
        } finally {
            starters.shutdown();
        }
    }

    private Member launch(int index, String upstream, String[] options) {
        int[] ports = FreePorts.loopback(2);
        Path limits = dir.resolve("limits-" + index + ".json");
        List<String> all = new ArrayList<>(List.of(
                "--upstream",
                upstream,
                "--listen",
                "127.0.0.1:" + ports[0],
                "--admin",
                "127.0.0.1:" + ports[1],
                "--limits-file",
                limits.toString()));
        all.addAll(List.of(options));
        SluiceProcess process = SluiceProcess.builder(SluiceProcess.builtJar())
                .jvmOptions(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"))
                .options(all.toArray(String[]::new))
                .logFile(dir.resolve("sluice-" + index + ".log"))
                .echo("[sluice-" + index + "] ")
                .start();
        return new Member(process, ports[0], ports[1], limits);
    }

    /**
     * What one Sluice had forwarded to the broker at one moment, summed over the topics whose
     * names start with a prefix; the moment is the middle of the scrape, which on a loaded machine
     * may take a while.
     */
    record Forwarded(long messages, long atNanos) {

        /** Messages per second between {@code earlier} and this. */
        double rateSince(Forwarded earlier) {
            return (messages - earlier.messages) / ((atNanos - earlier.atNanos) / 1e9);
        }
    }

    /** What each Sluice has forwarded so far on the topics starting with {@code prefix}. */
    Forwarded[] forwarded(String prefix) {
        Forwarded[] counts = new Forwarded[members.size()];
        for (int i = 0; i < counts.length; i++) {
            long before = System.nanoTime();
            String metrics = get(members.get(i), "/metrics").body();
            long at = before + (System.nanoTime() - before) / 2;
            long messages = 0;
            Matcher sample = PUBLISHED.matcher(metrics);
            while (sample.find()) {
                if (sample.group(1).startsWith(prefix)) {
                    messages += (long) Double.parseDouble(sample.group(2));
                }
            }
            counts[i] = new Forwarded(messages, at);
        }
        return counts;
    }

    /** Messages per second the Sluices forwarded together between two readings, each Sluice over its own window. */
    static double aggregateRate(Forwarded[] from, Forwarded[] to) {
        double rate = 0;
        for (int i = 0; i < from.length; i++) {
            rate += to[i].rateSince(from[i]);
        }
        return rate;
    }

    JsonNode json(Member member, String path) {
        HttpResponse<String> response = get(member, path);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    HttpResponse<String> get(Member member, String path) {
        return send(HttpRequest.newBuilder(member.admin(path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build());
    }

    HttpResponse<String> put(Member member, String path, String json) {
        return send(HttpRequest.newBuilder(member.admin(path))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        members.forEach(member -> member.process.close());
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // Scratch space only.
        }
    }
}
