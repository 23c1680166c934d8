package io.sluice.admin;

import io.sluice.admin.PrometheusText.Family;
import io.sluice.admin.PrometheusText.Sample;
import io.sluice.admission.AdmissionMode;
import io.sluice.admission.RequestType;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.status.ClientIdentity;
import io.sluice.status.DelayHistogram;
import io.sluice.status.ThrottleSubject;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

@ExtendWith(LeakCheck.class)
class MetricsEndpointTest {

    private static final String NS = "persistent://public/default/";

    @TempDir
    Path dir;

    @Test
    void aFreshProxyExposesValidTextWithEveryUnlabelledAndTopicFamily() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            HttpResponse<String> response = admin.get("/metrics");

            assertEquals(200, response.statusCode());
            assertEquals(
                    "text/plain; version=0.0.4; charset=utf-8",
                    response.headers().firstValue("Content-Type").orElseThrow());
            Map<String, Family> families = PrometheusText.parse(response.body());
            for (String counter : List.of(
                    "sluice_publish_messages_total",
                    "sluice_publish_bytes_total",
                    "sluice_dispatch_messages_total",
                    "sluice_dispatch_bytes_total",
                    "sluice_upstream_connect_failures_total")) {
                assertEquals("counter", families.get(counter).type(), counter);
            }
            for (String gauge : List.of(
                    "sluice_held_messages",
                    "sluice_held_bytes",
                    "sluice_connections",
                    "sluice_netty_direct_memory_bytes",
                    "sluice_netty_heap_memory_bytes",
                    "jvm_memory_used_bytes")) {
                assertEquals("gauge", families.get(gauge).type(), gauge);
            }
            assertEquals(
                    List.of(
                            Map.of("protocol", "kafka", "topic", "_other"),
                            Map.of("protocol", "pulsar", "topic", "_other")),
                    families.get("sluice_publish_messages_total").samples().stream()
                            .map(Sample::labels)
                            .toList(),
                    "every protocol's families exist from the first scrape on");
            assertEquals(0, value(families, "sluice_connections", Map.of("protocol", "pulsar")));
            assertEquals(0, value(families, "sluice_connections", Map.of("protocol", "kafka")));
            assertTrue(
                    families.keySet().stream().noneMatch(name -> name.startsWith("sluice_admission")),
                    "without admission control there are no admission families");
        }
    }

    @Test
    void admissionFamiliesShowBreakerStatesRejectionsByModeAndKnownSignals() throws IOException {
        AdmissionHarness admission = new AdmissionHarness(AdmissionMode.ENFORCED);
        try (AdminFixture admin = AdminFixture.withAdmission(dir, null, admission.controller)) {
            admission.overload();
            admission.controller.admit(RequestType.NEW_PRODUCER);
            admission.controller.admit(RequestType.NEW_PRODUCER);
            assertEquals(
                    200,
                    admin.put("/api/v1/admission", "{\"mode\": \"monitor_only\"}")
                            .statusCode());
            admission.controller.admit(RequestType.NEW_CONSUMER);

            Map<String, Family> families = scrape(admin);

            Family states = families.get("sluice_admission_state");
            assertEquals("gauge", states.type());
            assertTrue(states.help().contains("0 closed, 1 half-open, 2 open"), states.help());
            for (String type : List.of("new_connection", "metadata", "new_producer", "new_consumer")) {
                assertEquals(2, value(families, "sluice_admission_state", Map.of("type", type)), type);
            }
            Family rejections = families.get("sluice_admission_rejections_total");
            assertEquals("counter", rejections.type());
            Map<Map<String, String>, Double> counts =
                    rejections.samples().stream().collect(Collectors.toMap(Sample::labels, Sample::value));
            assertEquals(8, counts.size(), "every type in both modes, zeros included");
            assertEquals(2, counts.get(Map.of("type", "new_producer", "mode", "enforced")));
            assertEquals(1, counts.get(Map.of("type", "new_consumer", "mode", "monitor_only")));
            assertEquals(
                    3, counts.values().stream().mapToDouble(Double::doubleValue).sum());
            Family signals = families.get("sluice_admission_signal");
            assertEquals("gauge", signals.type());
            assertTrue(signals.help().contains("event_loop_lag (milliseconds)"), signals.help());
            assertEquals(0.95, value(families, "sluice_admission_signal", Map.of("signal", "cpu")));
            assertEquals(0.5, value(families, "sluice_admission_signal", Map.of("signal", "heap")));
            assertEquals(2, signals.samples().size(), "signals without a value are left out");

            admission.recover();
            assertEquals(
                    1, value(scrape(admin), "sluice_admission_state", Map.of("type", "new_connection")), "half-open");
            admission.sampleAfter(Duration.ofSeconds(1));
            assertEquals(0, value(scrape(admin), "sluice_admission_state", Map.of("type", "new_connection")), "closed");
        }
    }

    @Test
    void figuresComeFromTheCoreAtScrapeTime() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            admin.activity.meter("pulsar", NS + "orders").published(7, 700);
            admin.activity.meter("pulsar", NS + "orders").dispatched(5, 500);
            admin.activity.meter("pulsar", NS + "orders").held(2, 200);
            admin.ledger.begin(
                    new ThrottleSubject(
                            "pulsar", "c1", NS + "orders", ClientIdentity.of(PulsarScopes.PRODUCER_ID.of(1L))),
                    "topic",
                    "publish messagesPerSecond 5.0",
                    "delay");
            admin.ledger.begin(
                    new ThrottleSubject(
                            "pulsar", "c2", NS + "orders", ClientIdentity.of(PulsarScopes.PRODUCER_ID.of(2L))),
                    "topic",
                    "publish messagesPerSecond 5.0",
                    "delay");
            admin.ledger.delayed("topic", 3_000_000);
            admin.ledger.delayed("topic", 70_000_000_000L);
            admin.ledger.delayed("namespace", 1_000);
            admin.stats.connectionOpened();
            admin.stats.upstreamConnectFailed();
            admin.stats.protocolError("frame too large");
            admin.stats.protocolError("odd \"reason\"\nwith a newline\\");

            Map<String, Family> families = scrape(admin);

            Map<String, String> orders = Map.of("protocol", "pulsar", "topic", NS + "orders");
            assertEquals(7, value(families, "sluice_publish_messages_total", orders));
            assertEquals(700, value(families, "sluice_publish_bytes_total", orders));
            assertEquals(5, value(families, "sluice_dispatch_messages_total", orders));
            assertEquals(500, value(families, "sluice_dispatch_bytes_total", orders));
            assertEquals(2, value(families, "sluice_held_messages", orders));
            assertEquals(200, value(families, "sluice_held_bytes", orders));
            assertEquals(
                    2,
                    value(
                            families,
                            "sluice_throttle_events_total",
                            Map.of(
                                    "protocol",
                                    "pulsar",
                                    "topic",
                                    NS + "orders",
                                    "scope",
                                    "topic",
                                    "reason",
                                    "publish messagesPerSecond 5.0",
                                    "action",
                                    "delay",
                                    "principal",
                                    "",
                                    "role",
                                    "")));
            assertEquals(1, value(families, "sluice_connections", Map.of("protocol", "pulsar")));
            assertEquals(1, value(families, "sluice_upstream_connect_failures_total", Map.of("protocol", "pulsar")));
            assertEquals(
                    1,
                    value(
                            families,
                            "sluice_protocol_errors_total",
                            Map.of("protocol", "pulsar", "reason", "frame too large")));
            assertEquals(
                    1,
                    value(
                            families,
                            "sluice_protocol_errors_total",
                            Map.of("protocol", "pulsar", "reason", "odd \\\"reason\\\"\\nwith a newline\\\\")));
            assertEquals(0, value(families, "sluice_connections", Map.of("protocol", "kafka")));

            Family delays = families.get("sluice_throttle_delay_seconds");
            assertEquals("histogram", delays.type());
            List<Sample> topicBuckets = delays.samples().stream()
                    .filter(s -> s.name().endsWith("_bucket") && "topic".equals(s.label("scope")))
                    .toList();
            assertEquals(DelayHistogram.BOUNDS.length + 1, topicBuckets.size());
            assertEquals("0.001", topicBuckets.get(0).label("le"));
            assertEquals(0, topicBuckets.get(0).value());
            assertEquals(1, topicBuckets.get(1).value(), "3 ms is in the 5 ms bucket");
            assertEquals(1, topicBuckets.get(DelayHistogram.BOUNDS.length - 1).value(), "70 s is over the 60 s bucket");
            assertEquals("+Inf", topicBuckets.get(DelayHistogram.BOUNDS.length).label("le"));
            assertEquals(2, topicBuckets.get(DelayHistogram.BOUNDS.length).value());
            assertEquals(70.003, value(families, "sluice_throttle_delay_seconds_sum", Map.of("scope", "topic")), 1e-9);
            assertEquals(1, value(families, "sluice_throttle_delay_seconds_count", Map.of("scope", "namespace")));

            admin.activity.meter("pulsar", NS + "orders").published(1, 1);
            assertEquals(8, value(scrape(admin), "sluice_publish_messages_total", orders));
        }
    }

    @Test
    void topicLabelsAreLimitedTopicsAndTheBusiestOthersTheRestIsOther() throws IOException {
        try (AdminFixture admin = AdminFixture.withMetricsMaxTopics(dir, 2)) {
            admin.put(
                    "/api/v1/limits/topics/persistent/public/default/limited",
                    "{\"publish\": {\"messagesPerSecond\": 1}}");
            admin.put(
                    "/api/v1/limits/topics/persistent/public/default/parted",
                    "{\"publish\": {\"messagesPerSecond\": 1}}");
            admin.activity.meter("pulsar", NS + "limited").published(1, 10);
            admin.activity.meter("pulsar", NS + "parted-partition-0").published(2, 20);
            admin.activity.meter("pulsar", NS + "busiest").published(500, 5000);
            admin.activity.meter("pulsar", NS + "busy").published(400, 4000);
            admin.activity.meter("pulsar", NS + "quiet").published(30, 300);
            admin.activity.meter("pulsar", NS + "quieter").published(20, 200);
            admin.activity.meter("pulsar", NS + "quieter").held(3, 30);
            admin.ledger.begin(
                    new ThrottleSubject(
                            "pulsar", "c", NS + "quiet", ClientIdentity.of(PulsarScopes.PRODUCER_ID.of(1L))),
                    "namespace",
                    "publish bytesPerSecond 1.0",
                    "reject");
            admin.ledger.begin(
                    new ThrottleSubject(
                            "pulsar", "c", NS + "quieter", ClientIdentity.of(PulsarScopes.PRODUCER_ID.of(2L))),
                    "namespace",
                    "publish bytesPerSecond 1.0",
                    "reject");

            Map<String, Family> families = scrape(admin);

            Map<String, Double> published = byTopic(families.get("sluice_publish_messages_total"));
            assertEquals(
                    Map.of(
                            NS + "limited",
                            1.0,
                            NS + "parted-partition-0",
                            2.0,
                            NS + "busiest",
                            500.0,
                            NS + "busy",
                            400.0,
                            "_other",
                            50.0),
                    published);
            assertEquals(
                    Set.copyOf(published.keySet()),
                    byTopic(families.get("sluice_held_bytes")).keySet());
            assertEquals(30, byTopic(families.get("sluice_held_bytes")).get("_other"));
            assertEquals(
                    2,
                    value(
                            families,
                            "sluice_throttle_events_total",
                            Map.of(
                                    "protocol",
                                    "pulsar",
                                    "topic",
                                    "_other",
                                    "scope",
                                    "namespace",
                                    "reason",
                                    "publish bytesPerSecond 1.0",
                                    "action",
                                    "reject",
                                    "principal",
                                    "",
                                    "role",
                                    "")));
        }
    }

    @Test
    void everyRateLimitInForceIsAGaugeSoDashboardsCanDrawRatesAgainstIt() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            admin.put(
                    "/api/v1/limits/topics/persistent/public/default/orders",
                    "{\"publish\": {\"messagesPerSecond\": 500}}");
            admin.put("/api/v1/limits/kafka/prefixes/team-a.", "{\"dispatch\": {\"bytesPerSecond\": 1048576}}");
            admin.put("/api/v1/limits/proxy", "{\"publish\": {\"messagesPerSecond\": 9000, \"bytesPerSecond\": 1e7}}");

            Map<String, Family> families = scrape(admin);

            assertEquals(
                    500,
                    value(
                            families,
                            "sluice_limit_messages_per_second",
                            Map.of(
                                    "protocol",
                                    "pulsar",
                                    "scope",
                                    "topic",
                                    "name",
                                    NS + "orders",
                                    "direction",
                                    "publish")));
            assertEquals(
                    1048576,
                    value(
                            families,
                            "sluice_limit_bytes_per_second",
                            Map.of(
                                    "protocol",
                                    "kafka",
                                    "scope",
                                    "prefix",
                                    "name",
                                    "team-a.",
                                    "direction",
                                    "dispatch")));
            assertEquals(
                    9000,
                    value(
                            families,
                            "sluice_limit_messages_per_second",
                            Map.of("protocol", "", "scope", "proxy", "name", "proxy", "direction", "publish")));
            assertEquals(
                    4,
                    families.get("sluice_limit_messages_per_second").samples().size()
                            + families.get("sluice_limit_bytes_per_second")
                                    .samples()
                                    .size(),
                    "one series per rate set, no more");
            assertEquals(1, value(families, "sluice_ready", Map.of()));
        }
    }

    @Test
    void aKafkaTopicAndAPulsarTopicOfTheSameNameAreSeparateSeries() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            admin.activity.meter("pulsar", "orders").published(3, 30);
            admin.activity.meter("kafka", "orders").published(5, 50);
            admin.ledger.begin(
                    new ThrottleSubject("kafka", "c", "orders", ClientIdentity.of(KafkaScopes.CLIENT_ID.of("billing"))),
                    "prefix",
                    "publish_messages",
                    "reject");

            Map<String, Family> families = scrape(admin);

            assertEquals(
                    3,
                    value(families, "sluice_publish_messages_total", Map.of("protocol", "pulsar", "topic", "orders")));
            assertEquals(
                    5,
                    value(families, "sluice_publish_messages_total", Map.of("protocol", "kafka", "topic", "orders")));
            assertEquals(
                    1,
                    value(
                            families,
                            "sluice_throttle_events_total",
                            Map.of(
                                    "protocol",
                                    "kafka",
                                    "topic",
                                    "orders",
                                    "scope",
                                    "prefix",
                                    "reason",
                                    "publish_messages",
                                    "action",
                                    "reject",
                                    "principal",
                                    "",
                                    "role",
                                    "")));
        }
    }

    @Test
    void theTextParserRejectsWhatTheFormatForbids() {
        assertThrows(AssertionError.class, () -> PrometheusText.parse("a 1\n"));
        assertThrows(AssertionError.class, () -> PrometheusText.parse("# HELP a x\n# TYPE a gauge\na{b=\"c} 1\n"));
        assertThrows(AssertionError.class, () -> PrometheusText.parse("# HELP a x\n# TYPE a gauge\na 1\na 2\n"));
        assertThrows(AssertionError.class, () -> PrometheusText.parse("# HELP a x\n# TYPE a gauge\na one\n"));
        assertThrows(AssertionError.class, () -> PrometheusText.parse("# HELP a x\n# TYPE a gauge\na 1"));
        assertThrows(
                AssertionError.class,
                () -> PrometheusText.parse(
                        "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n"));
        assertThrows(
                AssertionError.class,
                () -> PrometheusText.parse(
                        "# HELP a x\n# TYPE a gauge\n# HELP b x\n# TYPE b gauge\na{x=\"1\"} 1\nb 1\na{x=\"2\"} 1\n"));
        assertEquals(
                1,
                PrometheusText.parse("# HELP a x\n# TYPE a gauge\na{x=\"1\",} 1 1700000000000\n")
                        .size());
    }

    private static Map<String, Family> scrape(AdminFixture admin) {
        HttpResponse<String> response = admin.get("/metrics");
        assertEquals(200, response.statusCode());
        return PrometheusText.parse(response.body());
    }

    private static Map<String, Double> byTopic(Family family) {
        return family.samples().stream()
                .collect(Collectors.toMap(s -> s.label("topic"), Sample::value, Double::sum, TreeMap::new));
    }

    @Test
    void eachFrontEndHasItsOwnConnectionByteAndRequestSeriesLabelledWithItsProtocol() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            admin.kafkaStats.connectionOpened();
            admin.kafkaStats.request(0);
            admin.kafkaStats.request(0);
            admin.kafkaStats.request(7);
            admin.kafkaStats.bytesFromClient(300);
            admin.kafkaStats.bytesToClient(40);
            admin.kafkaStats.protocolError("unknown_api_key");
            admin.stats.bytesFromClient(5);

            Map<String, Family> families = scrape(admin);

            assertEquals(1, value(families, "sluice_connections", Map.of("protocol", "kafka")));
            assertEquals(0, value(families, "sluice_connections", Map.of("protocol", "pulsar")));
            assertEquals(2, value(families, "sluice_requests_total", Map.of("protocol", "kafka", "api", "produce")));
            assertEquals(
                    List.of(Map.of("api", "produce", "protocol", "kafka")),
                    families.get("sluice_requests_total").samples().stream()
                            .map(Sample::labels)
                            .toList(),
                    "only kinds seen, and only for front ends that count them");
            assertEquals(
                    300, value(families, "sluice_client_bytes_total", Map.of("protocol", "kafka", "direction", "in")));
            assertEquals(
                    40, value(families, "sluice_client_bytes_total", Map.of("protocol", "kafka", "direction", "out")));
            assertEquals(
                    5, value(families, "sluice_client_bytes_total", Map.of("protocol", "pulsar", "direction", "in")));
            assertEquals(
                    1,
                    value(
                            families,
                            "sluice_protocol_errors_total",
                            Map.of("protocol", "kafka", "reason", "unknown_api_key")));
        }
    }

    @Test
    void throttleEventsCarryThePrincipalOrTheRoleOfTheThrottledConnection() throws IOException {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            admin.activity.meter("kafka", "orders").published(1, 10);
            admin.activity.meter("pulsar", NS + "orders").published(1, 10);
            admin.ledger.begin(
                    new ThrottleSubject(
                            "kafka",
                            "c",
                            "orders",
                            ClientIdentity.of(
                                    KafkaScopes.CLIENT_ID.of("billing"), KafkaScopes.PRINCIPAL_FIELD.of("User:alice"))),
                    "principal",
                    "publish_messages",
                    "delay");
            admin.ledger.begin(
                    new ThrottleSubject(
                            "pulsar",
                            "c",
                            NS + "orders",
                            ClientIdentity.of(PulsarScopes.ROLE_FIELD.of("bob"), PulsarScopes.PRODUCER_ID.of(1L))),
                    "role",
                    "publish_messages",
                    "delay");

            Map<String, Family> families = scrape(admin);

            Map<String, Double> byIdentity = new TreeMap<>();
            families.get("sluice_throttle_events_total")
                    .samples()
                    .forEach(sample -> byIdentity.put(
                            sample.labels().get("protocol") + " "
                                    + sample.labels().get("principal") + "/"
                                    + sample.labels().get("role"),
                            sample.value()));
            assertEquals(Map.of("kafka User:alice/", 1.0, "pulsar /bob", 1.0), byIdentity);
        }
    }

    private static double value(Map<String, Family> families, String sample, Map<String, String> labels) {
        for (Family family : families.values()) {
            for (Sample s : family.samples()) {
                if (s.name().equals(sample) && s.labels().equals(labels)) {
                    return s.value();
                }
            }
        }
        return fail("no sample " + sample + labels);
    }
}
