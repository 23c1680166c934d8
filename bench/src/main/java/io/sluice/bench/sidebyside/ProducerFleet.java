package io.sluice.bench.sidebyside;

import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.impl.PulsarClientImpl;
import org.apache.pulsar.client.impl.conf.ClientConfigurationData;
import org.apache.pulsar.client.util.ExecutorProvider;
import org.apache.pulsar.client.util.ScheduledExecutorProvider;
import org.apache.pulsar.common.util.netty.EventLoopUtil;
import org.apache.pulsar.shade.io.netty.channel.EventLoopGroup;
import org.apache.pulsar.shade.io.netty.util.HashedWheelTimer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Many Pulsar clients, each with its own connection pool of one connection and one producer on
 * it, as many small applications would connect: the load of the connections scenario.
 *
 * <p>A {@code PulsarClient} built the ordinary way starts its own event loop, timer and executors,
 * several threads per client, which for 1,000 clients would swamp the load generator. These are built
 * with {@link PulsarClientImpl}'s builder instead, sharing one event loop group, timer and set of
 * executors (the lookup executor too: one thread per client would be 10,000 threads for the
 * many-connections scenario); each client still has its own connection pool, lookup service and
 * producer, so the broker or proxy sees the same connections and commands as from that many
 * separate clients.
 */
final class ProducerFleet implements AutoCloseable {

    /** Producers being created at once: quick, but not a connection storm that would measure accept queues. */
    private static final int CONCURRENT_CREATES = 50;

    private static final long CREATE_TIMEOUT_SECONDS = 60;

    private final EventLoopGroup eventLoops =
            EventLoopUtil.newEventLoopGroup(Runtime.getRuntime().availableProcessors(), false, daemon("fleet-io"));
    private final HashedWheelTimer timer = new HashedWheelTimer(daemon("fleet-timer"), 1, TimeUnit.MILLISECONDS);
    private final ExecutorProvider external = new ExecutorProvider(1, "fleet-listener");
    private final ExecutorProvider internal = new ExecutorProvider(1, "fleet-internal");
    private final ScheduledExecutorProvider scheduled = new ScheduledExecutorProvider(1, "fleet-scheduled");
    private final ExecutorProvider lookups = new ExecutorProvider(1, "fleet-lookup");
    private final List<PulsarClient> clients = new ArrayList<>();
    private final List<Producer<byte[]>> producers = new ArrayList<>();

    private ProducerFleet() {}

    /**
     * Connects {@code size} clients to {@code serviceUrl}, each creating one unbatched producer on
     * {@code topic}; returns once every producer is ready.
     */
    static ProducerFleet connect(String serviceUrl, String topic, int size) throws Exception {
        ProducerFleet fleet = new ProducerFleet();
        try {
            fleet.createProducers(serviceUrl, topic, size);
            return fleet;
        } catch (Exception e) {
            fleet.close();
            throw e;
        }
    }

    private void createProducers(String serviceUrl, String topic, int size) throws Exception {
        Semaphore creating = new Semaphore(CONCURRENT_CREATES);
        List<CompletableFuture<Producer<byte[]>>> creates = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            PulsarClient client = PulsarClientImpl.builder()
                    .conf(clientConf(serviceUrl))
                    .eventLoopGroup(eventLoops)
                    .timer(timer)
                    .externalExecutorProvider(external)
                    .internalExecutorProvider(internal)
                    .scheduledExecutorProvider(scheduled)
                    .lookupExecutorProvider(lookups)
                    .build();
            clients.add(client);
            creating.acquireUninterruptibly();
            creates.add(client.newProducer()
                    .topic(topic)
                    .enableBatching(false)
                    .sendTimeout(30, TimeUnit.SECONDS)
                    // A paced send never waits: a full queue fails it, and the failure is counted.
                    .blockIfQueueFull(false)
                    .createAsync()
                    .whenComplete((producer, error) -> creating.release()));
        }
        for (CompletableFuture<Producer<byte[]>> create : creates) {
            producers.add(create.get(CREATE_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        }
    }

    private static ClientConfigurationData clientConf(String serviceUrl) {
        ClientConfigurationData conf = new ClientConfigurationData();
        conf.setServiceUrl(serviceUrl);
        conf.setOperationTimeoutMs(TimeUnit.SECONDS.toMillis(30));
        conf.setConnectionsPerBroker(1);
        // Per-producer stats only log; 1,000 of them would be the load generator's own noise.
        conf.setStatsIntervalSeconds(0);
        return conf;
    }

    List<Producer<byte[]>> producers() {
        return producers;
    }

    @Override
    public void close() {
        List<CompletableFuture<Void>> closes = new ArrayList<>();
        for (PulsarClient client : clients) {
            closes.add(client.closeAsync());
        }
        try {
            CompletableFuture.allOf(closes.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            // A client that does not close in time is dropped with the shared threads below.
        }
        eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        timer.stop();
        external.shutdownNow();
        internal.shutdownNow();
        scheduled.shutdownNow();
        lookups.shutdownNow();
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
