package io.sluice.demo;

import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.HostPort;
import io.sluice.kafka.frontend.KafkaConfig;
import io.sluice.pulsar.frontend.PulsarConfig;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.server.SluiceConfig;
import io.sluice.server.SluiceServer;
import io.sluice.status.TopicMeter;
import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.process.ChildStartException;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

/**
 * Sluice at work in one command ({@code demo.sh [pulsar|kafka|both]}): a real Pulsar broker, Sluice
 * in front of it with {@code persistent://public/default/slow} limited to 100 msg/s over the REST
 * API, and two producers sharing one client connection, one per topic, with their rates printed
 * every second; or a real Kafka cluster with Sluice in front ({@link KafkaDemo}); or both through
 * one Sluice. Afterwards everything keeps running for the reader to try; Ctrl-C stops it all.
 */
public final class SluiceDemo {

    private static final String SLOW = "persistent://public/default/slow";
    private static final String FAST = "persistent://public/default/fast";
    private static final int SECONDS = 30;

    private SluiceDemo() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length == 0 ? "pulsar" : args[0];
        boolean pulsar = mode.equals("pulsar") || mode.equals("both");
        boolean kafka = mode.equals("kafka") || mode.equals("both");
        if (!pulsar && !kafka) {
            System.err.println("usage: demo.sh [pulsar|kafka|both]");
            System.exit(2);
            return;
        }
        PulsarBroker broker = null;
        KafkaCluster cluster = null;
        try {
            if (pulsar) {
                System.out.println("Starting a Pulsar 4.0.7 broker (child JVM, about 10 s)...");
                broker = PulsarBroker.builder().start();
            }
            if (kafka) {
                System.out.println(
                        "Starting a Kafka cluster: a KRaft controller and three brokers (child JVMs, about 10 s)...");
                cluster = KafkaCluster.builder().start();
            }
        } catch (ChildStartException e) {
            // The log holds the cause; a stack trace of the testkit would only hide it.
            System.err.println("The demo stopped: " + e.getMessage());
            if (broker != null) {
                broker.close();
            }
            System.exit(1);
            return;
        }
        Path dir = Files.createTempDirectory("sluice-demo");
        List<FrontEndConfig> frontEnds = new ArrayList<>();
        if (pulsar) {
            BrokerAddress upstream = BrokerAddress.parse(broker.serviceUrl());
            frontEnds.add(new PulsarConfig(
                    upstream,
                    false,
                    new HostPort("127.0.0.1", portOr(6650)),
                    BrokerAllowList.only(upstream),
                    LookupMode.REWRITE,
                    "sub"));
        }
        if (kafka) {
            frontEnds.add(KafkaDemo.config(cluster));
        }
        SluiceConfig config = SluiceConfig.embedded(frontEnds, dir.resolve("limits.json"))
                .admin(new HostPort("127.0.0.1", portOr(8080)))
                .build();
        SluiceServer sluice = SluiceServer.start(config);
        CountDownLatch stop = new CountDownLatch(1);
        PulsarBroker pulsarBroker = broker;
        KafkaCluster kafkaCluster = cluster;
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            System.out.println("\nStopping Sluice and the brokers...");
                            sluice.close();
                            if (pulsarBroker != null) {
                                pulsarBroker.close();
                            }
                            if (kafkaCluster != null) {
                                kafkaCluster.close();
                            }
                            stop.countDown();
                        },
                        "demo-stop"));

        String adminUrl = "http://127.0.0.1:" + sluice.adminPort();
        if (pulsar) {
            showPulsar(sluice, adminUrl, broker);
        }
        if (kafka) {
            KafkaDemo.show(sluice, config.frontEnd(KafkaConfig.class), adminUrl, cluster);
        }
        System.out.printf("Press Ctrl-C to stop everything.%n");
        stop.await();
    }

    /** Two Pulsar producers on one connection, one of them limited, with their rates each second. */
    private static void showPulsar(SluiceServer sluice, String adminUrl, PulsarBroker broker) throws Exception {
        String pulsarUrl = "pulsar://127.0.0.1:" + sluice.port(PulsarConfig.PROTOCOL);
        limitSlowTopic(adminUrl);

        try (PulsarClient client = PulsarClient.builder().serviceUrl(pulsarUrl).build()) {
            Producer<byte[]> slow = client.newProducer()
                    .topic(SLOW)
                    .enableBatching(false)
                    .blockIfQueueFull(true)
                    .create();
            Producer<byte[]> fast = client.newProducer()
                    .topic(FAST)
                    .enableBatching(false)
                    .blockIfQueueFull(true)
                    .create();
            Thread slowFlood = flood(slow);
            Thread fastFlood = flood(fast);
            TopicMeter slowMeter =
                    sluice.services(PulsarConfig.PROTOCOL).topics().meter(PulsarConfig.PROTOCOL, SLOW);
            TopicMeter fastMeter =
                    sluice.services(PulsarConfig.PROTOCOL).topics().meter(PulsarConfig.PROTOCOL, FAST);
            System.out.printf(
                    "Two producers on one connection flood %s (limited to 100 msg/s) and %s (unlimited):%n",
                    SLOW, FAST);
            long slowBefore = 0;
            long fastBefore = 0;
            for (int second = 1; second <= SECONDS; second++) {
                Thread.sleep(1_000);
                long slowNow = slowMeter.publishMessages();
                long fastNow = fastMeter.publishMessages();
                System.out.printf(
                        "\r[%2d s] slow: %5d msg/s (held in Sluice: %5d)   fast: %6d msg/s   ",
                        second, slowNow - slowBefore, slowMeter.heldMessages(), fastNow - fastBefore);
                System.out.flush();
                slowBefore = slowNow;
                fastBefore = fastNow;
            }
            slowFlood.interrupt();
            fastFlood.interrupt();
            slowFlood.join();
            fastFlood.join();
        }
        System.out.printf(
                "%n%nSluice keeps running. Try it:%n"
                        + "  pulsar-client --url %s produce %s -m hello -n 500      (paced at 100 msg/s)%n"
                        + "  curl %s/api/v1/throttled%n"
                        + "  curl %s/api/v1/limits%n"
                        + "  curl -X PUT %s/api/v1/limits/topics/persistent/public/default/slow \\%n"
                        + "       -H 'Content-Type: application/json' -d '{\"publish\":{\"messagesPerSecond\":20}}'%n"
                        + "  curl %s/metrics | grep sluice_%n"
                        + "The broker itself is at %s.%n%n",
                pulsarUrl, SLOW, adminUrl, adminUrl, adminUrl, adminUrl, broker.serviceUrl());
    }

    private static void limitSlowTopic(String adminUrl) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(
                                        URI.create(adminUrl + "/api/v1/limits/topics/persistent/public/default/slow"))
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"publish\":{\"messagesPerSecond\":100}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("setting the demo limit failed: " + response.body());
        }
        System.out.println(
                "PUT " + adminUrl + "/api/v1/limits/topics/persistent/public/default/slow -> " + response.body());
    }

    /** Sends as fast as the client allows, with at most 500 sends outstanding. */
    private static Thread flood(Producer<byte[]> producer) {
        Semaphore window = new Semaphore(500);
        Thread thread = new Thread(
                () -> {
                    byte[] payload = new byte[256];
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            window.acquire();
                            producer.sendAsync(payload).whenComplete((id, error) -> window.release());
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "flood-" + producer.getTopic());
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** The preferred port when it is free, so the printed commands are the usual ones; else any. */
    private static int portOr(int preferred) {
        try (ServerSocket socket = new ServerSocket(preferred)) {
            return preferred;
        } catch (IOException e) {
            return 0;
        }
    }
}
