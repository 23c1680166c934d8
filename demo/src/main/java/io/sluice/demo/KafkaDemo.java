package io.sluice.demo;

import io.sluice.frontend.HostPort;
import io.sluice.kafka.frontend.KafkaConfig;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.RoutingMode;
import io.sluice.kafka.scopes.SslPrincipalMapping;
import io.sluice.relay.ProxyStats;
import io.sluice.server.SluiceServer;
import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.process.FreePorts;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Kafka half of the demo: Sluice in front of a real three-broker cluster on the bootstrap port
 * 9092 and the node ports 9093-9095 (others when those are taken), a stock Java producer and a
 * consumer group through it, with their rates and Sluice's own figures each second.
 */
final class KafkaDemo {

    private static final String TOPIC = "demo";
    private static final int SECONDS = 20;

    private KafkaDemo() {}

    /** Sluice's Kafka front end for {@code cluster}: node N on the bootstrap port + N. */
    static KafkaConfig config(KafkaCluster cluster) {
        int port = free(9092, 1 + cluster.nodeIds().size())
                ? 9092
                : FreePorts.loopbackRange(1 + cluster.nodeIds().size());
        return new KafkaConfig(
                BrokerEndpoint.parseList(cluster.bootstrapServers()),
                new HostPort("127.0.0.1", port),
                "127.0.0.1",
                port,
                RoutingMode.REWRITE,
                false,
                null,
                SslPrincipalMapping.byDefault(),
                KafkaConfig.DEFAULT_MAX_TOPICS_PER_CONNECTION);
    }

    static void show(SluiceServer sluice, KafkaConfig config, String adminUrl, KafkaCluster cluster) throws Exception {
        String bootstrap = "127.0.0.1:" + sluice.port(KafkaConfig.PROTOCOL);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 3))).all().get(60, TimeUnit.SECONDS);
            System.out.printf("Topic %s created through Sluice; the brokers the client sees:%n", TOPIC);
            admin.describeCluster()
                    .nodes()
                    .get()
                    .forEach(node ->
                            System.out.printf("  node %d at %s:%d (Sluice)%n", node.id(), node.host(), node.port()));
        }
        AtomicLong produced = new AtomicLong();
        AtomicLong consumed = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread producer = daemon("kafka-producer", () -> produce(bootstrap, produced, running));
        Thread consumer = daemon("kafka-consumer", () -> consume(bootstrap, consumed, running));
        ProxyStats stats = sluice.stats(KafkaConfig.PROTOCOL);
        System.out.printf("A producer and a consumer group on %s, through Sluice:%n", TOPIC);
        long producedBefore = 0;
        long consumedBefore = 0;
        for (int second = 1; second <= SECONDS; second++) {
            Thread.sleep(1_000);
            long producedNow = produced.get();
            long consumedNow = consumed.get();
            Map<String, Long> requests = stats.requests();
            System.out.printf(
                    "\r[%2d s] produced: %6d rec/s   consumed: %6d rec/s   Sluice: %d connections, %d produce"
                            + " and %d fetch requests   ",
                    second,
                    producedNow - producedBefore,
                    consumedNow - consumedBefore,
                    stats.openConnections(),
                    requests.getOrDefault("produce", 0L),
                    requests.getOrDefault("fetch", 0L));
            System.out.flush();
            producedBefore = producedNow;
            consumedBefore = consumedNow;
        }
        running.set(false);
        producer.join();
        consumer.join();
        System.out.printf(
                "%n%nSluice keeps running. Try it:%n"
                        + "  kafka-console-producer.sh --bootstrap-server %s --topic %s%n"
                        + "  kafka-console-consumer.sh --bootstrap-server %s --topic %s --from-beginning%n"
                        + "  curl -s %s/metrics | grep 'protocol=\"kafka\"'%n"
                        + "Sluice serves broker node N on port %d+N; the brokers themselves are at %s.%n%n",
                bootstrap, TOPIC, bootstrap, TOPIC, adminUrl, config.nodePortBase(), cluster.bootstrapServers());
    }

    private static void produce(String bootstrap, AtomicLong produced, AtomicBoolean running) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            byte[] value = new byte[256];
            while (running.get()) {
                producer.send(new ProducerRecord<>(TOPIC, value), (metadata, error) -> {
                    if (error == null) {
                        produced.incrementAndGet();
                    }
                });
            }
        }
    }

    private static void consume(String bootstrap, AtomicLong consumed, AtomicBoolean running) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "demo");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            while (running.get()) {
                consumed.addAndGet(consumer.poll(Duration.ofMillis(200)).count());
            }
        }
    }

    private static Thread daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Whether {@code count} ports from {@code first} on are free. */
    private static boolean free(int first, int count) {
        for (int port = first; port < first + count; port++) {
            try (ServerSocket ignored = new ServerSocket(port)) {
                // Free: bound and closed again.
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }
}
