package io.sluice.server.it;

import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.server.SluiceMain;
import io.sluice.server.SluiceServer;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients whose CONNECT names brokers that take 5 s to (not) resolve, while well-behaved producers
 * on every event loop send 100 messages a second: the lookups wait off the event loops, the
 * producers' latency does not move, and each slow client is refused once its name fails.
 */
class SlowDnsIT {

    private static final int NEIGHBOURS = 4;
    private static final int SLOW_CLIENTS = 20;
    private static final long DNS_DELAY_MILLIS = 5_000;

    @Test
    void aCONNECTNamingAHostThatTakesSecondsToResolveStallsNobodyElse() throws Exception {
        PulsarBroker broker = PulsarBroker.shared();
        String upstream = broker.serviceUrl().substring("pulsar://".length());
        try (SlowDnsServer dns = new SlowDnsServer(DNS_DELAY_MILLIS);
                PulsarSluice sluice = new PulsarSluice(SluiceServer.start(SluiceMain.parse(
                        new String[] {
                            "--upstream",
                            broker.serviceUrl(),
                            "--listen",
                            "127.0.0.1:0",
                            "--admin",
                            "127.0.0.1:0",
                            "--limits-file",
                            Files.createTempDirectory("sluice-dns") + "/limits.json",
                            "--allowed-brokers",
                            "slow-\\d+\\.test:6650|" + upstream.replace(".", "\\."),
                            "--dns-servers",
                            dns.address()
                        },
                        Map.of(),
                        new PrintStream(new ByteArrayOutputStream()))))) {
            String serviceUrl = "pulsar://127.0.0.1:" + sluice.proxyPort();
            List<PulsarClient> clients = new ArrayList<>();
            List<Producer<byte[]>> producers = new ArrayList<>();
            try {
                for (int i = 0; i < NEIGHBOURS; i++) {
                    PulsarClient client =
                            PulsarClient.builder().serviceUrl(serviceUrl).build();
                    clients.add(client);
                    producers.add(client.newProducer(Schema.BYTES)
                            .topic("persistent://public/default/dns-neighbour-" + i + "-" + System.nanoTime())
                            .enableBatching(false)
                            .create());
                }
                long[][] latencies = new long[NEIGHBOURS][];
                List<Thread> senders = new ArrayList<>();
                for (int i = 0; i < NEIGHBOURS; i++) {
                    int n = i;
                    Thread sender = new Thread(() -> latencies[n] = sendAt100PerSecond(producers.get(n), 1_000));
                    senders.add(sender);
                    sender.start();
                }
                Thread.sleep(1_000);
                AtomicInteger refused = new AtomicInteger();
                List<Thread> slow = new ArrayList<>();
                long slowStart = System.nanoTime();
                for (int i = 0; i < SLOW_CLIENTS; i++) {
                    int n = i;
                    Thread client = new Thread(() -> {
                        if (connectRefused(sluice.proxyPort(), "pulsar://slow-" + n + ".test:6650")) {
                            refused.incrementAndGet();
                        }
                    });
                    slow.add(client);
                    client.start();
                }
                for (Thread client : slow) {
                    client.join(30_000);
                }
                long slowMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - slowStart);
                for (Thread sender : senders) {
                    sender.join(60_000);
                }

                long worstP99 = 0;
                StringBuilder figures = new StringBuilder();
                for (long[] each : latencies) {
                    Arrays.sort(each);
                    long p50 = each[each.length / 2] / 1_000;
                    long p99 = each[each.length * 99 / 100] / 1_000;
                    long max = each[each.length - 1] / 1_000;
                    worstP99 = Math.max(worstP99, p99);
                    figures.append(String.format(" [p50 %d us, p99 %d us, max %d us]", p50, p99, max));
                }
                System.out.printf(
                        "[slow-dns] %d CONNECTs naming names that take %d ms to fail, all refused after %d ms, %d"
                                + " queries; neighbours at 100 msg/s:%s%n",
                        SLOW_CLIENTS, DNS_DELAY_MILLIS, slowMillis, dns.queries.get(), figures);
                assertEquals(SLOW_CLIENTS, refused.get(), "slow clients not refused");
                assertTrue(slowMillis >= DNS_DELAY_MILLIS - 200, "refused before their names failed: " + slowMillis);
                assertTrue(worstP99 < 50_000_000L / 1_000, "a neighbour's p99 was " + worstP99 + " us");
            } finally {
                for (PulsarClient client : clients) {
                    client.close();
                }
            }
        }
    }

    /** Sends {@code count} messages, one every 10 ms; returns each send's latency in nanoseconds. */
    private static long[] sendAt100PerSecond(Producer<byte[]> producer, int count) {
        long[] latencies = new long[count];
        long next = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            try {
                producer.send(new byte[64]);
            } catch (Exception e) {
                latencies[i] = Long.MAX_VALUE / 2;
                continue;
            }
            latencies[i] = System.nanoTime() - start;
            next += 10_000_000L;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                } catch (InterruptedException e) {
                    return Arrays.copyOf(latencies, i + 1);
                }
            }
        }
        return latencies;
    }

    /** Sends a CONNECT naming {@code proxyToBrokerUrl}; whether Sluice answered with an ERROR. */
    private static boolean connectRefused(int port, String proxyToBrokerUrl) {
        try {
            return RawPulsarClient.connectTo(port, proxyToBrokerUrl).getType() == BaseCommand.Type.ERROR;
        } catch (IOException e) {
            return false;
        }
    }
}
