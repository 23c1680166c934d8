package io.sluice.server.it.kafka;

import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.ClientSslContexts;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sluice.jar} as a process of its own in front of {@link BrokersOnlySluiceReaches}, in
 * rewrite mode on free ports: a bootstrap port and the node ports after it. Runs under the test
 * JVM's leak detector; {@link #close()} fails if Netty reported a leak.
 */
final class SluiceForKafka implements AutoCloseable {

    final SluiceProcess process;
    final int kafkaPort;
    final int nodePortBase;
    final int adminPort;
    /** With {@code --tls-cert} the admin port speaks HTTPS, its certificate from the brokers' CA. */
    private final SSLContext adminTls;

    private SluiceForKafka(SluiceProcess process, int kafkaPort, int nodePortBase, int adminPort, SSLContext adminTls) {
        this.process = process;
        this.kafkaPort = kafkaPort;
        this.nodePortBase = nodePortBase;
        this.adminPort = adminPort;
        this.adminTls = adminTls;
    }

    /** Sluice forwarding to {@code upstream} (a listener of the cluster), with {@code options} besides its ports. */
    static SluiceForKafka start(BrokersOnlySluiceReaches brokers, String upstream, String... options) {
        return startOn("127.0.0.1", brokers, upstream, options);
    }

    /** As {@link #start}, with a heap of {@code heap} (e.g. {@code 256m}) rather than 512 MiB. */
    static SluiceForKafka startWithHeap(
            String heap, BrokersOnlySluiceReaches brokers, String upstream, String... options) {
        return startOn("127.0.0.1", heap, brokers, upstream, options);
    }

    /**
     * Sluice listening on {@code listenHost} (another loopback address, for a relay in front of each
     * port) while it still tells clients {@code 127.0.0.1}.
     */
    static SluiceForKafka startOn(
            String listenHost, BrokersOnlySluiceReaches brokers, String upstream, String... options) {
        return startOn(listenHost, "512m", brokers, upstream, options);
    }

    /**
     * Sluice in front of {@code cluster} at {@code upstream}, whose brokers advertise addresses a
     * client could reach too (a cluster of a test's own, with settings the shared one does not have).
     */
    static SluiceForKafka start(KafkaCluster cluster, String upstream, String... options) {
        return startOn("127.0.0.1", "512m", cluster.nodeIds().size(), null, null, upstream, options);
    }

    private static SluiceForKafka startOn(
            String listenHost, String heap, BrokersOnlySluiceReaches brokers, String upstream, String... options) {
        return startOn(
                listenHost, heap, brokers.cluster.nodeIds().size(), brokers.hostsFile, brokers.ca, upstream, options);
    }

    /** @param hostsFile Sluice's hosts file, or null for the machine's; {@code ca} the admin port's, or null */
    private static SluiceForKafka startOn(
            String listenHost,
            String heap,
            int nodeCount,
            Path hostsFile,
            CertificateAuthority ca,
            String upstream,
            String... options) {
        int kafkaPort = FreePorts.loopbackRange(2 + nodeCount);
        int base = kafkaPort;
        int adminPort = FreePorts.loopback();
        Path limits;
        try {
            limits = Files.createTempDirectory("sluice-kafka").resolve("limits.json");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> args = new ArrayList<>(List.of(
                "--kafka-upstream",
                upstream,
                "--kafka-listen",
                listenHost + ":" + kafkaPort,
                "--kafka-advertised-host",
                "127.0.0.1",
                "--kafka-node-port-base",
                Integer.toString(base),
                "--admin",
                "127.0.0.1:" + adminPort,
                "--limits-file",
                limits.toString()));
        args.addAll(List.of(options));
        List<String> jvm = new ArrayList<>(List.of("-Xmx" + heap));
        if (hostsFile != null) {
            jvm.add("-Djdk.net.hosts.file=" + hostsFile);
        }
        String leakLevel = System.getProperty("io.netty.leakDetection.level");
        if (leakLevel != null) {
            jvm.add("-Dio.netty.leakDetection.level=" + leakLevel);
        }
        SluiceProcess process = SluiceProcess.builder(SluiceProcess.builtJar())
                .jvmOptions(jvm)
                .options(args.toArray(String[]::new))
                .echo("[sluice] ")
                .start();
        SSLContext adminTls =
                List.of(options).contains("--tls-cert") ? ClientSslContexts.trusting(ca.certificateFile()) : null;
        return new SluiceForKafka(process, kafkaPort, base, adminPort, adminTls);
    }

    /** What a client puts in {@code bootstrap.servers}. */
    String bootstrap() {
        return "127.0.0.1:" + kafkaPort;
    }

    String adminUrl() {
        return (adminTls == null ? "http" : "https") + "://127.0.0.1:" + adminPort;
    }

    /** A client of the admin port, trusting its certificate when it speaks HTTPS. */
    private HttpClient http() {
        return adminTls == null
                ? HttpClient.newHttpClient()
                : HttpClient.newBuilder().sslContext(adminTls).build();
    }

    /** One {@code GET /metrics}. */
    String metrics() {
        return get("/metrics").body();
    }

    HttpResponse<String> get(String path) {
        try {
            return http().send(
                            HttpRequest.newBuilder(URI.create(adminUrl() + path))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Puts the Kafka topic limit {@code json} on {@code topic} through the admin API. */
    void limit(String topic, String json) {
        putLimit("topics", topic, json);
    }

    /** Puts the Kafka client limit {@code json} on {@code clientId} ({@code *} for each client without its own). */
    void limitClient(String clientId, String json) {
        putLimit("clients", clientId, json);
    }

    /** Puts the Kafka principal limit {@code json} on {@code principal} ({@code User:name}) through the admin API. */
    void limitPrincipal(String principal, String json) {
        putLimit("principals", principal, json);
    }

    /** Puts the client address limit {@code json} on the CIDR block {@code block} ({@code *} for each address). */
    void limitAddresses(String block, String json) {
        putLimitAt("/api/v1/limits/ips/" + URLEncoder.encode(block, StandardCharsets.UTF_8), json);
    }

    /** Removes the client address limit of {@code block}, if it has one. */
    void unlimitAddresses(String block) {
        deleteLimitAt("/api/v1/limits/ips/" + URLEncoder.encode(block, StandardCharsets.UTF_8));
    }

    /** Removes the Kafka limit of {@code kind} ({@code topics}, {@code clients}, ...) on {@code name}, if it has one. */
    void deleteLimit(String kind, String name) {
        deleteLimitAt("/api/v1/limits/kafka/" + kind + "/" + URLEncoder.encode(name, StandardCharsets.UTF_8));
    }

    private void deleteLimitAt(String path) {
        try {
            HttpResponse<String> response = http().send(
                            HttpRequest.newBuilder(URI.create(adminUrl() + path))
                                    .DELETE()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2 && response.statusCode() != 404) {
                throw new AssertionError(response.statusCode() + " " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Puts the consumer group limit {@code json} on the group id or glob {@code group} ({@code *} for each group). */
    void limitGroup(String group, String json) {
        putLimit("groups", group, json);
    }

    /** Puts the Kafka limit {@code json} of {@code kind} ({@code topics}, {@code prefixes}, ...) on {@code name}. */
    void putLimit(String kind, String name, String json) {
        putLimitAt("/api/v1/limits/kafka/" + kind + "/" + URLEncoder.encode(name, StandardCharsets.UTF_8), json);
    }

    private void putLimitAt(String path, String json) {
        try {
            HttpResponse<String> response = http().send(
                            HttpRequest.newBuilder(URI.create(adminUrl() + path))
                                    .header("Content-Type", "application/json")
                                    .PUT(HttpRequest.BodyPublishers.ofString(json))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new AssertionError(response.statusCode() + " " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The value of the one sample {@code series} (name and labels exactly as exposed), 0 when absent. */
    double metric(String series) {
        return sample(metrics(), series);
    }

    /** The value of the one sample {@code series} in {@code metrics} (a {@code /metrics} body), 0 when absent. */
    static double sample(String metrics, String series) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(
                        line.substring(series.length() + 1).trim().split(" ")[0]);
            }
        }
        return 0;
    }

    @Override
    public void close() {
        process.close();
    }

    /** Closes Sluice, then fails if its log reported a leaked buffer. */
    void closeCheckingLeaks() {
        boolean leaked = leaked();
        close();
        if (leaked) {
            throw new AssertionError("Sluice's log reports a leaked buffer");
        }
    }

    /** Whether Sluice's log reports a leaked buffer. */
    boolean leaked() {
        try {
            return Files.readString(process.logFile()).contains("LEAK:");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
