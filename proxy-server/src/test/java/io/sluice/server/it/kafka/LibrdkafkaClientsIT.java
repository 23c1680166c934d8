package io.sluice.server.it.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.ClientSslContexts;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * librdkafka, the C client under Python's, Go's, .NET's clients and kcat, through Sluice as a new
 * user meets it: Debian's {@code python3-confluent-kafka} and {@code kcat} (which {@code .ci/run}
 * installs), with SASL/PLAIN over TLS to Sluice (SASL_SSL) in front of the brokers' SASL listener.
 * kcat's metadata names only Sluice; an idempotent producer delayed by a limit loses and duplicates
 * nothing, and a consumer group reads it all; {@code reject} reaches the delivery report as
 * {@code POLICY_VIOLATION}; {@code notify} reaches librdkafka's throttle callback.
 *
 * <p>Where the clients are missing the test is skipped, unless {@code SLUICE_REQUIRE_LIBRDKAFKA}
 * is set (as {@code .ci/run} sets it), which makes their absence a failure.
 */
class LibrdkafkaClientsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static BrokersOnlySluiceReaches brokers;
    private static SluiceForKafka sluice;
    private static KafkaClients javaClients;
    private static LibrdkafkaScript librdkafka;

    @BeforeAll
    static void start() throws Exception {
        brokers = BrokersOnlySluiceReaches.get();
        IssuedCertificate certificate =
                brokers.ca.issue("sluice").hosts("127.0.0.1", "localhost").write();
        sluice = SluiceForKafka.start(
                brokers,
                brokers.saslBootstrap(),
                "--tls-cert",
                certificate.certificate().toString(),
                "--tls-key",
                certificate.key().toString());
        String ca = brokers.ca.certificateFile().toString();
        librdkafka = LibrdkafkaScript.forClientsOf(
                sluice.bootstrap(),
                List.of(
                        "security.protocol=SASL_SSL",
                        "sasl.mechanisms=PLAIN",
                        "sasl.username=" + BrokersOnlySluiceReaches.SASL_USER,
                        "sasl.password=" + BrokersOnlySluiceReaches.SASL_PASSWORD,
                        "ssl.ca.location=" + ca));
        javaClients = new KafkaClients(
                sluice.bootstrap(),
                Map.of(
                        CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL",
                        SaslConfigs.SASL_MECHANISM, "PLAIN",
                        SaslConfigs.SASL_JAAS_CONFIG,
                                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                                        + BrokersOnlySluiceReaches.SASL_USER + "\" password=\""
                                        + BrokersOnlySluiceReaches.SASL_PASSWORD + "\";",
                        SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                        SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca));
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    @Test
    void kcatMetadataNamesOnlySluicesAddresses() throws Exception {
        String topic = KafkaClientsIT.unique("rdkafka-metadata");
        javaClients.createTopics(3, topic);
        List<String> command =
                new ArrayList<>(List.of(LibrdkafkaScript.KCAT, "-b", sluice.bootstrap(), "-L", "-J", "-t", topic));
        for (String setting : librdkafka.settings()) {
            command.add("-X");
            command.add(setting);
        }
        String out = LibrdkafkaScript.run(command);
        JsonNode metadata = JSON.readTree(out);
        Set<String> brokerAddresses = new HashSet<>();
        for (JsonNode broker : metadata.get("brokers")) {
            brokerAddresses.add(broker.get("name").asText());
        }
        Set<String> sluices = new HashSet<>();
        for (int node : brokers.cluster.nodeIds()) {
            sluices.add("127.0.0.1:" + (sluice.nodePortBase + node));
        }
        assertEquals(sluices, brokerAddresses, out);
        assertFalse(out.contains(BrokersOnlySluiceReaches.ADVERTISED_HOST), out);
        assertEquals(3, metadata.get("topics").get(0).get("partitions").size(), out);
    }

    @Test
    void anIdempotentProducerDelayedByALimitLosesAndDuplicatesNothingAndAGroupReadsItAll() throws Exception {
        String topic = KafkaClientsIT.unique("rdkafka-delay");
        javaClients.createTopics(3, topic);
        limit(topic, "{\"publish\": {\"messagesPerSecond\": 500}, \"onExceed\": \"delay\"}");
        int count = 1_500;

        JsonNode produced = librdkafka("produce", topic, count, "enable.idempotence=true");

        assertEquals(count, produced.get("delivered").asInt(), produced.toString());
        assertEquals(0, produced.get("errors").size(), produced.toString());
        JsonNode consumed = librdkafka("consume", topic, count, "--group", KafkaClientsIT.unique("rdkafka-group"));
        List<String> values = new ArrayList<>();
        consumed.get("values").forEach(value -> values.add(value.asText()));
        assertEquals(count, values.size(), "records read, duplicates included: " + consumed.get("errors"));
        assertEquals(count, new HashSet<>(values).size(), "distinct records read");
    }

    @Test
    void rejectReachesTheDeliveryReportAsPolicyViolation() throws Exception {
        String topic = KafkaClientsIT.unique("rdkafka-reject");
        javaClients.createTopics(1, topic);
        limit(topic, "{\"publish\": {\"messagesPerSecond\": 5}, \"onExceed\": \"reject\"}");

        JsonNode produced =
                librdkafka("produce", topic, 50, "enable.idempotence=false", "linger.ms=0", "batch.num.messages=1");

        assertTrue(produced.get("delivered").asInt() > 0, produced.toString());
        assertTrue(produced.path("errors").path("POLICY_VIOLATION").asInt() > 0, produced.toString());
        assertEquals(
                50,
                produced.get("delivered").asInt()
                        + produced.path("errors").path("POLICY_VIOLATION").asInt());
    }

    @Test
    void notifyReachesLibrdkafkasThrottleCallback() throws Exception {
        String topic = KafkaClientsIT.unique("rdkafka-notify");
        javaClients.createTopics(1, topic);
        limit(topic, "{\"publish\": {\"messagesPerSecond\": 100}, \"onExceed\": \"notify\"}");

        JsonNode produced = librdkafka("produce", topic, 600, "linger.ms=5", "batch.num.messages=50");

        assertEquals(600, produced.get("delivered").asInt(), produced.toString());
        List<Integer> throttles = new ArrayList<>();
        produced.get("throttleMs").forEach(ms -> throttles.add(ms.asInt()));
        assertTrue(throttles.stream().anyMatch(ms -> ms > 0), "no throttle callback with a throttle time: " + produced);
    }

    private static JsonNode librdkafka(String action, String topic, int count, String... extra) throws Exception {
        return librdkafka.run(action, topic, count, extra);
    }

    private static void limit(String topic, String json) throws Exception {
        HttpResponse<String> response = HttpClient.newBuilder()
                .sslContext(ClientSslContexts.trusting(brokers.ca.certificateFile()))
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        "https://127.0.0.1:" + sluice.adminPort + "/api/v1/limits/kafka/topics/"
                                                + URLEncoder.encode(topic, StandardCharsets.UTF_8)))
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertTrue(response.statusCode() / 100 == 2, response.statusCode() + " " + response.body());
    }
}
