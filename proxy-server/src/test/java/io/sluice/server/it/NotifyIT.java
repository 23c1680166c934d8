package io.sluice.server.it;

import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.server.it.notify.ConformanceClient;
import io.sluice.server.it.notify.ConformanceClient.NoticeHandling;
import io.sluice.server.it.notify.ThrottleNotice;
import io.sluice.status.ThrottledClient;
import io.sluice.status.TopicMeter;
import io.sluice.testing.LeakCheck;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.admin.PulsarAdmin;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.sluice.server.it.PublishQuotaIT.limit;
import static io.sluice.server.it.PublishQuotaIT.topic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code onExceed: notify} (docs/REFERENCE.md, "Actions"; docs/PROTOCOL-EXTENSION.md) with the real broker: a
 * conformance client that takes throttle notices, one that advertises them but never answers, one
 * that answers but does not pause, one without the flag, and the stock pulsar-client.
 */
@ExtendWith(LeakCheck.class)
class NotifyIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RunningSluice sluice;

    @BeforeAll
    static void start() {
        sluice = RunningSluice.frontProxy(broker);
    }

    @AfterAll
    static void stop() {
        sluice.close();
    }

    private static ConformanceClient client(RunningSluice through, boolean advertisesNotices, NoticeHandling handling)
            throws Exception {
        return ConformanceClient.connect(
                new InetSocketAddress("127.0.0.1", through.server.proxyPort()), advertisesNotices, handling);
    }

    /** What the test thread saw of a topic in Sluice while it waited. */
    private static final class Watch {
        private final RunningSluice through;
        private final TopicMeter meter;
        private final String topic;
        long maxHeldMessages;
        long maxHeldBytes;
        final Set<String> actions = new HashSet<>();

        Watch(RunningSluice through, String topic) {
            this.through = through;
            this.topic = topic;
            this.meter = through.server.services().topics().meter("pulsar", topic);
        }

        /** Samples the held gauges every millisecond and the throttle ledger every 20 ms, for {@code millis}. */
        void during(long millis) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            int tick = 0;
            while (System.nanoTime() - end < 0) {
                maxHeldMessages = Math.max(maxHeldMessages, meter.heldMessages());
                maxHeldBytes = Math.max(maxHeldBytes, meter.heldBytes());
                if (tick++ % 20 == 0) {
                    for (ThrottledClient throttled :
                            through.server.services().throttles().throttled()) {
                        if (throttled.topic().equals(topic)) {
                            actions.add(throttled.action());
                        }
                    }
                }
                Thread.sleep(1);
            }
        }

        /**
         * Messages per second over a measured window after a warm-up: what Sluice forwarded to
         * the broker, and what the broker acknowledged (by acknowledgement time).
         */
        Rates rates(long warmupMillis, long windowMillis, ReceiptLog receipts) throws InterruptedException {
            during(warmupMillis);
            long fromCount = meter.publishMessages();
            long from = System.nanoTime();
            during(windowMillis);
            long to = System.nanoTime();
            double seconds = (to - from) / 1e9;
            return new Rates((meter.publishMessages() - fromCount) / seconds, receipts.between(from, to) / seconds);
        }

        /**
         * That Sluice relied on the complying {@code client} throughout: nothing held, listed as
         * {@code notify} only. The one excuse is a receipt that missed its window because this
         * machine stalled the client (other builds share it); Sluice then holds that producer from
         * then on, as it must.
         */
        void assertReliedOn(ConformanceClient client) {
            boolean fellBack = eventsByAction().containsKey("delay");
            if (fellBack && client.longestStallMillis() >= 50) {
                System.out.printf(
                        "notify: fell back to delay after the client stalled for %d ms%n", client.longestStallMillis());
                return;
            }
            assertFalse(fellBack, "no fallback to delay");
            assertEquals(0, maxHeldMessages, "Sluice relied on the client and held nothing");
            assertEquals(0, maxHeldBytes);
            assertTrue(Set.of("notify").containsAll(actions), "listed as notified only: " + actions);
        }

        /** Throttle starts counted for the topic, by action. */
        Map<String, Long> eventsByAction() {
            return through.server.services().throttles().events().entrySet().stream()
                    .filter(e -> e.getKey().topic().equals(topic))
                    .collect(Collectors.groupingBy(
                            e -> e.getKey().action(), Collectors.summingLong(Map.Entry::getValue)));
        }
    }

    /** Receipts a client got in {@code [fromNanos, toNanos)}. */
    private interface ReceiptLog {
        long between(long fromNanos, long toNanos);
    }

    /** Messages per second Sluice forwarded and the broker acknowledged. */
    private record Rates(double forwarded, double acknowledged) {

        /**
         * Forwarded within 2 % of {@code limit}; acknowledged likewise, give or take the broker's
         * jitter at the window's edges on a loaded machine.
         */
        void assertMatch(double limit) {
            assertEquals(limit, forwarded, limit * 0.02, "forwarded within 2 %");
            assertEquals(limit, acknowledged, limit * 0.05, "acknowledged");
        }

        @Override
        public String toString() {
            return String.format("forwarded %.1f msg/s, acknowledged %.1f msg/s", forwarded, acknowledged);
        }
    }

    /**
     * A 200 msg/s notify limit, with the default 1 s burst: a producer or proxy that this shared
     * machine stalls for less than that catches up afterwards instead of losing the time.
     */
    private static final String NOTIFY_200 = "{\"publish\":{\"messagesPerSecond\":200},\"onExceed\":\"notify\"}";

    /**
     * One send in flight at a time, so nothing reaches Sluice while a notice is on its way: the
     * send that finds the bucket empty leaves it between one and two messages short, and the pause
     * is exactly what the bucket needs to admit again, 20 to 40 ms at 50 msg/s.
     */
    @ParameterizedTest
    @ValueSource(strings = {"topic", "namespace", "proxy"})
    void aNoticeNamesTheExceededScopeAndThePauseTheBucketNeeds(String scope) throws Exception {
        String namespace = "public/notify-" + scope + "-" + System.nanoTime();
        try (PulsarAdmin admin =
                PulsarAdmin.builder().serviceHttpUrl(broker.webUrl()).build()) {
            admin.namespaces().createNamespace(namespace);
        }
        String topic = "persistent://" + namespace + "/paced";
        var rate = limit("{\"publish\":{\"messagesPerSecond\":50,\"burstSeconds\":0.1},\"onExceed\":\"notify\"}");
        ThrottlingReason expected = switch (scope) {
            case "topic" -> ThrottlingReason.TopicProduceQuotaExceeded;
            case "namespace" -> ThrottlingReason.ResourceGroupProduceQuotaExceeded;
            default -> ThrottlingReason.BrokerProduceQuotaExceeded;
        };
        try (RunningSluice own = RunningSluice.frontProxy(broker);
                ConformanceClient client = client(own, true, NoticeHandling.COMPLY)) {
            own.server.limits().update(d -> switch (scope) {
                case "topic" -> d.withLimit(new ScopeRef(PulsarScopes.TOPIC, topic), rate);
                case "namespace" -> d.withLimit(new ScopeRef(PulsarScopes.NAMESPACE, namespace), rate);
                default -> d.withLimit(ScopeRef.PROXY, rate);
            });
            long producerId = client.createProducer(topic);
            Watch watch = new Watch(own, topic);
            client.startSending(producerId, 1, 100);
            watch.during(2_500);
            client.stopSending(producerId);

            List<ThrottleNotice> notices = client.notices();
            Set<Long> pauses =
                    notices.stream().map(ThrottleNotice::pauseForMillis).collect(Collectors.toSet());
            System.out.printf(
                    "notify %s: %d notices, pauses %s ms, %d receipts%n",
                    scope, notices.size(), pauses.stream().sorted().toList(), client.receipts(producerId));
            assertTrue(notices.size() >= 20, "about one notice per message past the burst: " + notices.size());
            for (ThrottleNotice notice : notices) {
                assertEquals(producerId, notice.producerId());
                assertEquals(expected, notice.reason());
                assertTrue(notice.pauseForMillis() >= 20 && notice.pauseForMillis() <= 40, notice.toString());
            }
            watch.assertReliedOn(client);
            assertEquals(List.of(), client.problems());
        }
    }

    @Test
    void aCompliantClientIsNeverHeldAndGetsTheLimitWithinTwoPercent() throws Exception {
        String topic = topic("notify-comply");
        sluice.server.limits().update(d -> d.withLimit(new ScopeRef(PulsarScopes.TOPIC, topic), limit(NOTIFY_200)));
        try (ConformanceClient client = client(sluice, true, NoticeHandling.COMPLY)) {
            long producerId = client.createProducer(topic);
            Watch watch = new Watch(sluice, topic);
            // A complying client sends its whole window after each pause: a window boundary may cut one such burst,
            // so measure long enough for 20 messages to be under 1 %, with enough in flight to ride out slow receipts.
            client.startSending(producerId, 20, 100);
            Rates rates = watch.rates(3_000, 20_000, (from, to) -> client.receiptsBetween(producerId, from, to));
            client.stopSending(producerId);

            List<Long> pauses = client.notices().stream()
                    .map(ThrottleNotice::pauseForMillis)
                    .sorted()
                    .toList();
            System.out.printf(
                    "notify comply: 200 msg/s limit -> %s; %d notices, pause min %d, median %d, max %d ms;"
                            + " most held %d messages; events %s%n",
                    rates,
                    pauses.size(),
                    pauses.get(0),
                    pauses.get(pauses.size() / 2),
                    pauses.get(pauses.size() - 1),
                    watch.maxHeldMessages,
                    watch.eventsByAction());
            System.out.printf("notify comply: longest client stall %d ms%n", client.longestStallMillis());
            rates.assertMatch(200);
            assertTrue(client.notices().stream()
                    .allMatch(n -> n.reason() == ThrottlingReason.TopicProduceQuotaExceeded
                            && n.producerId() == producerId
                            && n.pauseForMillis() > 0));
            assertTrue(watch.eventsByAction().containsKey("notify"), "counted as notified while Sluice relies on it");
            watch.assertReliedOn(client);
            assertEquals(List.of(), client.problems());
        }
    }

    @Test
    void aClientThatNeverAnswersIsHeldAsWithDelayAndStillGetsTheLimit() throws Exception {
        String topic = topic("notify-silent");
        sluice.server.limits().update(d -> d.withLimit(new ScopeRef(PulsarScopes.TOPIC, topic), limit(NOTIFY_200)));
        try (ConformanceClient client = client(sluice, true, NoticeHandling.IGNORE)) {
            long producerId = client.createProducer(topic);
            Watch watch = new Watch(sluice, topic);
            // Enough in flight to keep the bucket busy while receipts are slow; the warm-up covers the
            // receipt window and the debt the client ran up during it.
            client.startSending(producerId, 20, 100);
            Rates rates = watch.rates(6_000, 10_000, (from, to) -> client.receiptsBetween(producerId, from, to));
            client.stopSending(producerId);

            System.out.printf(
                    "notify silent: 200 msg/s limit -> %s; %d notices; most held %d messages; events %s%n",
                    rates, client.notices().size(), watch.maxHeldMessages, watch.eventsByAction());
            assertFalse(client.notices().isEmpty(), "it was told");
            assertTrue(watch.maxHeldMessages > 0, "then Sluice held its sends");
            rates.assertMatch(200);
            assertTrue(watch.actions.contains("delay"), "listed as delayed: " + watch.actions);
            assertTrue(watch.eventsByAction().getOrDefault("delay", 0L) > 0);
            assertEquals(List.of(), client.problems());
        }
    }

    @Test
    void aClientThatAnswersButKeepsSendingIsHeldAndStillGetsTheLimit() throws Exception {
        String topic = topic("notify-liar");
        sluice.server.limits().update(d -> d.withLimit(new ScopeRef(PulsarScopes.TOPIC, topic), limit(NOTIFY_200)));
        try (ConformanceClient client = client(sluice, true, NoticeHandling.ANSWER_WITHOUT_PAUSING)) {
            long producerId = client.createProducer(topic);
            Watch watch = new Watch(sluice, topic);
            // Enough in flight to keep the bucket busy while receipts are slow.
            client.startSending(producerId, 50, 100);
            Rates rates = watch.rates(3_000, 10_000, (from, to) -> client.receiptsBetween(producerId, from, to));
            client.stopSending(producerId);

            System.out.printf(
                    "notify liar: 200 msg/s limit -> %s; %d notices; most held %d messages; events %s%n",
                    rates, client.notices().size(), watch.maxHeldMessages, watch.eventsByAction());
            assertFalse(client.notices().isEmpty(), "it was told");
            assertTrue(watch.maxHeldMessages > 0, "a send after its receipt made Sluice hold its sends");
            rates.assertMatch(200);
            assertTrue(watch.actions.contains("delay"), "listed as delayed: " + watch.actions);
            assertEquals(List.of(), client.problems());
        }
    }

    @Test
    void theStockClientOnANotifyLimitIsDelayedAndKeepsItsConnection() throws Exception {
        String topic = topic("notify-stock");
        try (RunningSluice own = RunningSluice.frontProxy(broker);
                PulsarClient stock =
                        PulsarClient.builder().serviceUrl(own.serviceUrl).build()) {
            own.server.limits().update(d -> d.withLimit(new ScopeRef(PulsarScopes.TOPIC, topic), limit(NOTIFY_200)));
            Producer<byte[]> producer = stock.newProducer()
                    .topic(topic)
                    .enableBatching(false)
                    .blockIfQueueFull(true)
                    .sendTimeout(0, TimeUnit.SECONDS)
                    .create();
            long connections = own.server.stats().acceptedConnections();
            Watch watch = new Watch(own, topic);
            try (Flood flood = new Flood(producer, 100, 1000)) {
                Rates rates = watch.rates(2_000, 10_000, flood::acknowledgedBetween);
                System.out.printf(
                        "notify stock client: 200 msg/s limit -> %s; most held %d messages%n",
                        rates, watch.maxHeldMessages);
                rates.assertMatch(200);
                assertEquals(0, flood.failures.get(), () -> "failed sends: " + flood.errors);
            }
            assertTrue(watch.maxHeldMessages > 0, "delay: Sluice held its sends");
            assertEquals(Set.of("delay"), watch.eventsByAction().keySet());
            producer.send(new byte[1]);
            assertEquals(connections, own.server.stats().acceptedConnections(), "the client never reconnected");
        }
    }

    @Test
    void aClientWithoutTheFlagIsDelayedAndNeverSeesAnExtensionCommand() throws Exception {
        String topic = topic("notify-unflagged");
        try (RunningSluice own = RunningSluice.frontProxy(broker);
                ConformanceClient client = client(own, false, NoticeHandling.COMPLY)) {
            // A tight connection limit too, so that connection-level breaches happen as well.
            own.server
                    .limits()
                    .update(d -> d.withLimit(
                                    new ScopeRef(PulsarScopes.TOPIC, topic),
                                    limit("{\"publish\":{\"messagesPerSecond\":100},\"onExceed\":\"notify\"}"))
                            .withConnection(new ConnectionLimits(5, ConnectionLimits.DEFAULT.maxHeldBytes())));
            long producerId = client.createProducer(topic);
            Watch watch = new Watch(own, topic);
            client.startSending(producerId, 20, 100);
            watch.during(3_000);
            client.stopSending(producerId);

            System.out.printf(
                    "notify unflagged: %d receipts, most held %d messages, %d extension commands%n",
                    client.receipts(producerId), watch.maxHeldMessages, client.extensionCommands());
            assertTrue(client.receipts(producerId) > 100, "it kept publishing");
            assertTrue(watch.maxHeldMessages > 0, "delay: Sluice held its sends");
            assertEquals(0, client.extensionCommands());
            assertEquals(List.of(), client.problems());
        }
    }

    @Test
    void aConnectionOverItsPendingSendLimitTellsEveryProducerToPauseZero() throws Exception {
        String a = topic("notify-pending-a");
        String b = topic("notify-pending-b");
        try (RunningSluice own = RunningSluice.frontProxy(broker);
                ConformanceClient client = client(own, true, NoticeHandling.COMPLY)) {
            own.server
                    .limits()
                    .update(d -> d.withConnection(new ConnectionLimits(20, ConnectionLimits.DEFAULT.maxHeldBytes())));
            long pa = client.createProducer(a);
            long pb = client.createProducer(b);
            client.startSending(pa, 50, 100);
            client.startSending(pb, 50, 100);
            Set<Long> told =
                    awaitConnectionNotices(client, ThrottlingReason.ConnectionPendingMessagesBreach, Set.of(pa, pb));
            long receipts = client.receipts(pa) + client.receipts(pb);
            Thread.sleep(500);
            client.stopSending(pa);
            client.stopSending(pb);

            assertEquals(Set.of(pa, pb), told, "every producer of the connection");
            assertTrue(client.receipts(pa) + client.receipts(pb) > receipts, "reading resumed");
            assertEquals(List.of(), client.problems());
        }
    }

    @Test
    void aConnectionOverItsHeldByteLimitTellsEveryProducerToPauseZero() throws Exception {
        String limited = topic("notify-held-a");
        String free = topic("notify-held-b");
        int maxHeldBytes = 20_000;
        try (RunningSluice own = RunningSluice.frontProxy(broker);
                ConformanceClient client = client(own, true, NoticeHandling.COMPLY)) {
            own.server
                    .limits()
                    .update(d -> d.withLimit(
                                    new ScopeRef(PulsarScopes.TOPIC, limited),
                                    limit("{\"publish\":{\"messagesPerSecond\":20,\"burstSeconds\":0.1}}"))
                            .withConnection(
                                    new ConnectionLimits(ConnectionLimits.DEFAULT.maxPendingSends(), maxHeldBytes)));
            long pa = client.createProducer(limited);
            long pb = client.createProducer(free);
            Watch watch = new Watch(own, limited);
            client.startSending(pa, 100, 1000);
            client.startSending(pb, 1, 100);
            watch.during(1_000);
            Set<Long> told = awaitConnectionNotices(client, ThrottlingReason.MessageBufferSizeBreach, Set.of(pa, pb));
            client.stopSending(pa);
            client.stopSending(pb);

            System.out.printf("notify held bytes: most held %d bytes (limit %d)%n", watch.maxHeldBytes, maxHeldBytes);
            assertEquals(Set.of(pa, pb), told, "every producer of the connection");
            assertTrue(watch.maxHeldBytes <= maxHeldBytes + 2048, "reading paused at the limit: " + watch.maxHeldBytes);
            assertEquals(List.of(), client.problems());
        }
    }

    /** Waits until every producer in {@code producers} got a connection notice for {@code reason}; all have pause 0. */
    private static Set<Long> awaitConnectionNotices(
            ConformanceClient client, ThrottlingReason reason, Set<Long> producers) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Set<Long> told = Set.of();
        while (!told.containsAll(producers) && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
            List<ThrottleNotice> notices =
                    client.notices().stream().filter(n -> n.reason() == reason).toList();
            notices.forEach(n -> assertEquals(0, n.pauseForMillis(), n.toString()));
            told = notices.stream().map(ThrottleNotice::producerId).collect(Collectors.toSet());
        }
        return told;
    }
}
