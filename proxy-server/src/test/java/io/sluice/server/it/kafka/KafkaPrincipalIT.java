package io.sluice.server.it.kafka;

import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Limits by principal through Sluice, whose upstream is the brokers' SASL listener
 * (docs/KAFKA.md, "Principals"): alice's limit holds for her two producers together, whatever
 * client ids and mechanisms they use, while bob beside her is not slowed; {@code "*"} gives each
 * principal a bucket of its own; a wrong password is the broker's refusal, charged to nobody; and a
 * principal reconnecting faster than its rate of new connections has the connections over it
 * closed right after authenticating, from which its clients recover.
 */
class KafkaPrincipalIT {

    private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule";
    private static final Duration FLOOD = Duration.ofSeconds(6);
    /** Small batches, so that a rate of a few hundred records a second comes in fine steps. */
    private static final int SMALL_BATCH = 512;
    /** The producer's default, so that what an unlimited producer gets is bounded by the broker and the machine. */
    private static final int DEFAULT_BATCH = 16384;

    private static BrokersOnlySluiceReaches brokers;
    private static SluiceForKafka sluice;

    @BeforeAll
    static void start() {
        brokers = BrokersOnlySluiceReaches.get();
        sluice = SluiceForKafka.start(brokers, brokers.saslBootstrap());
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.closeCheckingLeaks();
        }
    }

    @Test
    void alicesLimitHoldsOverHerClientIdsWhileBobIsNotSlowedAndTheDefaultGivesEachTheirOwn() throws Exception {
        String aliceTopic1 = KafkaClientsIT.unique("alice-one");
        String aliceTopic2 = KafkaClientsIT.unique("alice-two");
        String bobTopic = KafkaClientsIT.unique("bob");
        alice("PLAIN", PLAIN, BrokersOnlySluiceReaches.SASL_PASSWORD)
                .createTopics(1, aliceTopic1, aliceTopic2, bobTopic);
        assertEquals(
                200,
                put("/api/v1/limits/kafka/principals/User%3Aalice", "{\"publish\": {\"messagesPerSecond\": 200}}"));

        Flood[] floods = flood(aliceTopic1, aliceTopic2, bobTopic, DEFAULT_BATCH);
        double alice = Flood.rate(floods, floods[0], floods[1]);
        double bob = Flood.rate(floods, floods[2]);
        System.out.printf(
                "[kafka-principal] User:alice at 200/s over two client ids (PLAIN, SCRAM-SHA-512): %.1f records/s"
                        + " together (%.1f + %.1f); User:bob unlimited beside her: %.1f records/s%n",
                alice, Flood.rate(floods, floods[0]), Flood.rate(floods, floods[1]), bob);
        assertTrue(alice >= 180 && alice <= 220, "alice's two producers together: " + alice);
        // How the two share her bucket is not fixed: under delay the one whose retry comes first takes what is there.
        assertTrue(bob > 2 * 200, "bob is not slowed by alice's limit: " + bob);

        assertEquals(204, delete("/api/v1/limits/kafka/principals/User%3Aalice"));
        assertEquals(200, put("/api/v1/limits/kafka/principals/%2A", "{\"publish\": {\"messagesPerSecond\": 300}}"));
        try {
            floods = flood(aliceTopic1, aliceTopic2, bobTopic, SMALL_BATCH);
            alice = Flood.rate(floods, floods[0], floods[1]);
            bob = Flood.rate(floods, floods[2]);
            System.out.printf(
                    "[kafka-principal] \"*\" at 300/s: User:alice %.1f records/s, User:bob %.1f records/s%n",
                    alice, bob);
            assertTrue(alice >= 270 && alice <= 330, "alice under the default: " + alice);
            assertTrue(bob >= 270 && bob <= 330, "bob under the default, in a bucket of his own: " + bob);
        } finally {
            delete("/api/v1/limits/kafka/principals/%2A");
        }
    }

    @Test
    void aWrongPasswordIsTheBrokersRefusalAndNamesNobody() {
        try (Admin admin = alice("SCRAM-SHA-512", SCRAM, "wrong").admin()) {
            ExecutionException failed = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeCluster().nodes().get(60, TimeUnit.SECONDS));
            assertInstanceOf(SaslAuthenticationException.class, failed.getCause());
            assertFalse(
                    failed.getCause().getMessage().contains("Sluice"),
                    failed.getCause().getMessage());
        }
        String metrics = sluice.metrics();
        assertFalse(metrics.contains("wrong"), "no credential in the metrics");
        assertFalse(sluice.get("/api/v1/throttled").body().contains("wrong"));
    }

    @Test
    void anOauthBearerTokensSubjectIsItsPrincipal() throws Exception {
        String carolTopic = KafkaClientsIT.unique("oauth-carol");
        String daveTopic = KafkaClientsIT.unique("oauth-dave");
        KafkaClients carol = KafkaClients.oauthBearer(sluice.bootstrap(), "carol");
        KafkaClients dave = KafkaClients.oauthBearer(sluice.bootstrap(), "dave");
        carol.createTopics(1, carolTopic, daveTopic);
        sluice.limitPrincipal("User:carol", "{\"publish\": {\"messagesPerSecond\": 200}}");
        try {
            Flood[] floods = run(
                    new Flood(carol, "carol-app", carolTopic, SMALL_BATCH),
                    new Flood(dave, "dave-app", daveTopic, DEFAULT_BATCH));
            double carolRate = Flood.rate(floods, floods[0]);
            double daveRate = Flood.rate(floods, floods[1]);
            System.out.printf(
                    "[kafka-principal] OAUTHBEARER (the brokers' unsecured validator): User:carol at 200/s:"
                            + " %.1f records/s; User:dave unlimited beside her: %.1f records/s%n",
                    carolRate, daveRate);
            assertTrue(carolRate >= 180 && carolRate <= 220, "carol: " + carolRate);
            assertTrue(daveRate > 2 * 200, "dave is not slowed by carol's limit: " + daveRate);
        } finally {
            delete("/api/v1/limits/kafka/principals/User%3Acarol");
        }
    }

    @Test
    void clientCertificatesNameTheirPrincipalsByTheMappingRules() throws Exception {
        CertificateAuthority ca = brokers.ca;
        IssuedCertificate serving =
                ca.issue("sluice-mtls").hosts("127.0.0.1", "localhost").write();
        IssuedCertificate aliceCertificate = ca.issue("alice-app")
                .subject("CN=Alice,OU=ServiceUsers,O=Sluice")
                .write();
        IssuedCertificate bobCertificate =
                ca.issue("bob-app").subject("CN=bob,OU=ServiceUsers,O=Sluice").write();
        String aliceTopic1 = KafkaClientsIT.unique("mtls-alice-one");
        String aliceTopic2 = KafkaClientsIT.unique("mtls-alice-two");
        String bobTopic = KafkaClientsIT.unique("mtls-bob");
        try (SluiceForKafka mtls = SluiceForKafka.start(
                brokers,
                brokers.plaintextBootstrap(),
                "--tls-cert",
                serving.certificate().toString(),
                "--tls-key",
                serving.key().toString(),
                "--tls-client-ca",
                ca.certificateFile().toString(),
                "--kafka-ssl-principal-mapping-rules",
                "RULE:^CN=([^,]+),OU=ServiceUsers,.*$/$1/L, DEFAULT")) {
            KafkaClients alice =
                    KafkaClients.ssl(mtls.bootstrap(), ca.certificateFile(), KafkaClients.identity(aliceCertificate));
            KafkaClients bob =
                    KafkaClients.ssl(mtls.bootstrap(), ca.certificateFile(), KafkaClients.identity(bobCertificate));
            alice.createTopics(1, aliceTopic1, aliceTopic2, bobTopic);
            mtls.limitPrincipal("User:alice", "{\"publish\": {\"messagesPerSecond\": 200}}");
            Flood[] floods = run(
                    new Flood(alice, "alice-cert-1", aliceTopic1, SMALL_BATCH),
                    new Flood(alice, "alice-cert-2", aliceTopic2, SMALL_BATCH),
                    new Flood(bob, "bob-cert", bobTopic, DEFAULT_BATCH));
            double aliceRate = Flood.rate(floods, floods[0], floods[1]);
            double bobRate = Flood.rate(floods, floods[2]);
            System.out.printf(
                    "[kafka-principal] mTLS: CN=Alice,OU=ServiceUsers mapped to User:alice at 200/s: %.1f records/s"
                            + " over two producers; User:bob unlimited beside her: %.1f records/s%n",
                    aliceRate, bobRate);
            assertTrue(aliceRate >= 180 && aliceRate <= 220, "alice's two producers together: " + aliceRate);
            assertTrue(bobRate > 2 * 200, "bob is not slowed by alice's limit: " + bobRate);
            assertFalse(mtls.leaked(), "Sluice's log reports a leaked buffer");
        }
    }

    /**
     * Floods for {@link #FLOOD}: alice on two topics with two client ids (PLAIN, SCRAM-SHA-512), bob
     * on a third with batches of {@code bobBatch} bytes.
     */
    private static Flood[] flood(String aliceTopic1, String aliceTopic2, String bobTopic, int bobBatch)
            throws Exception {
        return run(
                new Flood(
                        alice("PLAIN", PLAIN, BrokersOnlySluiceReaches.SASL_PASSWORD),
                        "alice-app-1",
                        aliceTopic1,
                        SMALL_BATCH),
                new Flood(
                        alice("SCRAM-SHA-512", SCRAM, BrokersOnlySluiceReaches.SASL_PASSWORD),
                        "alice-app-2",
                        aliceTopic2,
                        SMALL_BATCH),
                new Flood(
                        login(
                                "SCRAM-SHA-256",
                                SCRAM,
                                BrokersOnlySluiceReaches.SECOND_SASL_USER,
                                BrokersOnlySluiceReaches.SECOND_SASL_PASSWORD),
                        "bob-app",
                        bobTopic,
                        bobBatch));
    }

    /** Runs {@code floods} together, each once warm, and returns them when all are done. */
    private static Flood[] run(Flood... floods) throws Exception {
        CountDownLatch warm = new CountDownLatch(floods.length);
        List<Thread> threads = new ArrayList<>();
        for (Flood flood : floods) {
            flood.warm = warm;
            Thread thread = new Thread(flood, "flood-" + flood.clientId);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(90));
        }
        for (Flood flood : floods) {
            assertTrue(flood.failure == null, flood.clientId + " failed: " + flood.failure);
        }
        return floods;
    }

    @Test
    void aPrincipalReconnectingInALoopGetsItsRateOfNewConnectionsAndRecovers() throws Exception {
        String refused = "sluice_connections_refused_total{protocol=\"kafka\",reason=\"connection_rate\"}";
        assertEquals(
                200,
                put(
                        "/api/v1/limits/kafka/principals/User%3Abob",
                        "{\"connections\": {\"perSecond\": 2, \"burstSeconds\": 1}}"));
        try {
            double before = sluice.metric(refused);
            describeClusterAsNewClients(alice("PLAIN", PLAIN, BrokersOnlySluiceReaches.SASL_PASSWORD), 6);
            assertEquals(before, sluice.metric(refused), 0.0, "alice's connections are not bob's");
            long start = System.nanoTime();
            describeClusterAsNewClients(
                    login(
                            "PLAIN",
                            PLAIN,
                            BrokersOnlySluiceReaches.SECOND_SASL_USER,
                            BrokersOnlySluiceReaches.SECOND_SASL_PASSWORD),
                    6);
            double seconds = (System.nanoTime() - start) / 1e9;
            double closed = sluice.metric(refused) - before;
            System.out.printf(
                    "[kafka-principal] bob reconnecting as 6 new clients at 2 connections/s: %.0f closed after"
                            + " authenticating, all 6 answered in %.1f s%n",
                    closed, seconds);
            assertTrue(closed >= 1, "bob's connections over his rate were closed after authenticating");
        } finally {
            delete("/api/v1/limits/kafka/principals/User%3Abob");
        }
    }

    /** {@code times} new admin clients one after the other, each describing the cluster once: a new connection each. */
    private static void describeClusterAsNewClients(KafkaClients clients, int times) throws Exception {
        for (int i = 0; i < times; i++) {
            try (Admin admin = clients.admin()) {
                assertFalse(admin.describeCluster()
                        .nodes()
                        .get(60, TimeUnit.SECONDS)
                        .isEmpty());
            }
        }
    }

    private static KafkaClients alice(String mechanism, String module, String password) {
        return login(mechanism, module, BrokersOnlySluiceReaches.SASL_USER, password);
    }

    private static KafkaClients login(String mechanism, String module, String user, String password) {
        return KafkaClients.sasl(sluice.bootstrap(), mechanism, module, user, password);
    }

    private static int put(String path, String json) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(sluice.adminUrl() + path))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    private static int delete(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(sluice.adminUrl() + path)).DELETE());
    }

    private static int send(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response =
                HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode();
    }

    /**
     * One producer offering far more than any limit to one topic for {@link #FLOOD}, after one
     * acknowledged record (so that the connection is authenticated and the topic known), with small
     * batches so that a rate comes in fine steps.
     */
    private static final class Flood implements Runnable {

        private final KafkaClients clients;
        private final String clientId;
        private final String topic;
        private final int batchBytes;
        /** Counted down once this producer is warm; the floods start together once every one is. */
        private CountDownLatch warm;

        private final List<Long> acked = Collections.synchronizedList(new ArrayList<>());
        private volatile long start;
        private volatile long end;
        private volatile Exception failure;

        Flood(KafkaClients clients, String clientId, String topic, int batchBytes) {
            this.clients = clients;
            this.clientId = clientId;
            this.topic = topic;
            this.batchBytes = batchBytes;
        }

        @Override
        public void run() {
            try (KafkaProducer<String, String> producer = clients.producer(
                    ProducerConfig.CLIENT_ID_CONFIG,
                    clientId,
                    ProducerConfig.BATCH_SIZE_CONFIG,
                    Integer.toString(batchBytes),
                    ProducerConfig.BUFFER_MEMORY_CONFIG,
                    "65536",
                    ProducerConfig.MAX_BLOCK_MS_CONFIG,
                    "10000")) {
                producer.send(new ProducerRecord<>(topic, "warm-up")).get(60, TimeUnit.SECONDS);
                warm.countDown();
                warm.await(60, TimeUnit.SECONDS);
                start = System.nanoTime();
                end = start + FLOOD.toNanos();
                for (long i = 0; System.nanoTime() < end; i++) {
                    // Blocks while the small buffer is full of held batches, as an application would.
                    producer.send(new ProducerRecord<>(topic, "r" + i), (metadata, e) -> {
                        if (e == null) {
                            acked.add(System.nanoTime());
                        }
                    });
                }
                producer.close(Duration.ZERO);
            } catch (Exception e) {
                failure = e;
            }
        }

        /**
         * Records of {@code counted} acknowledged per second in the window all of {@code floods} ran
         * in, from two seconds after the last one started (its buckets' burst spent) to the first end.
         */
        static double rate(Flood[] floods, Flood... counted) {
            long from = 0;
            long to = Long.MAX_VALUE;
            for (Flood flood : floods) {
                from = Math.max(from, flood.start + TimeUnit.SECONDS.toNanos(2));
                to = Math.min(to, flood.end);
            }
            assertTrue(to - from >= TimeUnit.SECONDS.toNanos(3), "a window of three seconds at least");
            long count = 0;
            for (Flood flood : counted) {
                synchronized (flood.acked) {
                    for (long t : flood.acked) {
                        if (t >= from && t < to) {
                            count++;
                        }
                    }
                }
            }
            return count / ((to - from) / 1e9);
        }
    }

    @Test
    void rawTokensAfterSaslHandshakeV0NameTheirPrincipals() throws Exception {
        String topic = KafkaClientsIT.unique("sasl-v0");
        KafkaClients alice = alice("PLAIN", PLAIN, BrokersOnlySluiceReaches.SASL_PASSWORD);
        alice.createTopics(1, topic);
        int leader = alice.describe(topic).partitions().get(0).leader().id();
        String bob = "User:" + BrokersOnlySluiceReaches.SECOND_SASL_USER;
        String limit = "{\"publish\": {\"messagesPerSecond\": 50}, \"onExceed\": \"reject\"}";
        sluice.limitPrincipal("User:" + BrokersOnlySluiceReaches.SASL_USER, limit);
        sluice.limitPrincipal(bob, limit);
        try (RawKafkaClient plain = new RawKafkaClient(sluice.nodePortBase + leader);
                RawKafkaClient scram = new RawKafkaClient(sluice.nodePortBase + leader)) {
            plain.loginPlain(BrokersOnlySluiceReaches.SASL_USER, BrokersOnlySluiceReaches.SASL_PASSWORD, (short) 0);
            scram.loginScram(
                    BrokersOnlySluiceReaches.SECOND_SASL_USER,
                    BrokersOnlySluiceReaches.SECOND_SASL_PASSWORD,
                    "",
                    (short) 0);
            for (RawKafkaClient client : new RawKafkaClient[] {plain, scram}) {
                long start = System.nanoTime();
                int accepted = 0;
                for (int request = 0; request < 6; request++) {
                    if (client.produce(topic, 0, RawKafkaClient.batch(50)) == Errors.NONE.code()) {
                        accepted += 50;
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                assertTrue(accepted >= 50, "the burst was admitted: " + accepted);
                // The burst, one batch into debt, and the rate since: the principal's 50 records/s held.
                assertTrue(accepted <= 100 + 50 * seconds, accepted + " records in " + seconds + " s");
            }
            System.out.println("[kafka-principal] SaslHandshake v0, raw PLAIN and SCRAM-SHA-256 tokens: each"
                    + " principal's 50 records/s held");
        } finally {
            delete("/api/v1/limits/kafka/principals/User%3A" + BrokersOnlySluiceReaches.SASL_USER);
            delete("/api/v1/limits/kafka/principals/" + URLEncoder.encode(bob, StandardCharsets.UTF_8));
        }
    }

    @Test
    void aScramLoginWithTheReservedExtensionIsChargedToItsUser() throws Exception {
        String topic = KafkaClientsIT.unique("scram-m");
        KafkaClients alice = alice("PLAIN", PLAIN, BrokersOnlySluiceReaches.SASL_PASSWORD);
        alice.createTopics(1, topic);
        int leader = alice.describe(topic).partitions().get(0).leader().id();
        String bob = "User:" + BrokersOnlySluiceReaches.SECOND_SASL_USER;
        sluice.limitPrincipal(bob, "{\"publish\": {\"messagesPerSecond\": 50}, \"onExceed\": \"reject\"}");
        // Bob's bucket outlives a limit another test removed (buckets expire when idle, not with
        // their limit), at most two batches in debt at 50 records/s: let it fill first.
        Thread.sleep(2_000);
        int accepted = 0;
        long start = System.nanoTime();
        try (RawKafkaClient raw = new RawKafkaClient(sluice.nodePortBase + leader)) {
            raw.loginScram(
                    BrokersOnlySluiceReaches.SECOND_SASL_USER, BrokersOnlySluiceReaches.SECOND_SASL_PASSWORD, "m=x,");
            for (int request = 0; request < 10; request++) {
                if (raw.produce(topic, 0, RawKafkaClient.batch(50)) == Errors.NONE.code()) {
                    accepted += 50;
                }
            }
        } finally {
            delete("/api/v1/limits/kafka/principals/" + URLEncoder.encode(bob, StandardCharsets.UTF_8));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "[kafka-principal] SCRAM with m=: %d of 500 records accepted in %.1f s under %s's 50 records/s%n",
                accepted, seconds, bob);
        assertTrue(accepted >= 50, "the burst was admitted: " + accepted);
        assertTrue(accepted <= 100 + 50 * seconds, "bob's limit held: " + accepted + " in " + seconds + " s");
    }
}
