package io.sluice.server.it.kafka;

import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/** Stock kafka-clients producers, consumers and admin clients, all bootstrapped from Sluice. */
final class KafkaClients {

    private final String bootstrap;
    private final Map<String, String> common;

    KafkaClients(String bootstrap) {
        this(bootstrap, Map.of());
    }

    /** @param common settings every client gets, e.g. SASL */
    KafkaClients(String bootstrap, Map<String, String> common) {
        this.bootstrap = bootstrap;
        this.common = common;
    }

    /** Clients that log in to {@code bootstrap} over SASL_PLAINTEXT with {@code mechanism} as {@code module} takes it. */
    static KafkaClients sasl(String bootstrap, String mechanism, String module, String user, String password) {
        return new KafkaClients(
                bootstrap,
                Map.of(
                        CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
                        "SASL_PLAINTEXT",
                        SaslConfigs.SASL_MECHANISM,
                        mechanism,
                        SaslConfigs.SASL_JAAS_CONFIG,
                        module + " required username=\"" + user + "\" password=\"" + password + "\";"));
    }

    /**
     * Clients that log in to {@code bootstrap} over SASL_PLAINTEXT with OAUTHBEARER, presenting an
     * unsecured token (Kafka's own, algorithm {@code none}) whose {@code sub} claim is {@code subject}.
     */
    static KafkaClients oauthBearer(String bootstrap, String subject) {
        return new KafkaClients(
                bootstrap,
                Map.of(
                        CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
                        "SASL_PLAINTEXT",
                        SaslConfigs.SASL_MECHANISM,
                        "OAUTHBEARER",
                        SaslConfigs.SASL_JAAS_CONFIG,
                        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required"
                                + " unsecuredLoginStringClaim_sub=\"" + subject + "\";"));
    }

    /**
     * Clients that speak SSL to {@code bootstrap}, trusting {@code ca} (PEM) and presenting the key
     * and certificate of {@code identity} (one PEM file, the key first).
     */
    static KafkaClients ssl(String bootstrap, Path ca, Path identity) {
        return new KafkaClients(
                bootstrap,
                Map.of(
                        CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                        SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                        SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca.toString(),
                        SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM",
                        SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, identity.toString()));
    }

    /** {@code certificate}'s key and certificate in one PEM file, as a client's {@code ssl.keystore.location} takes them. */
    static Path identity(IssuedCertificate certificate) throws IOException {
        Path identity = Files.createTempFile("kafka-client", ".pem");
        identity.toFile().deleteOnExit();
        Files.writeString(
                identity, Files.readString(certificate.key()) + "\n" + Files.readString(certificate.certificate()));
        return identity;
    }

    KafkaProducer<String, String> producer(String... settings) {
        Properties props = props(settings);
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
        return new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
    }

    KafkaConsumer<String, String> consumer(String... settings) {
        Properties props = props(settings);
        props.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    }

    Admin admin(String... settings) {
        return Admin.create(props(settings));
    }

    /** Creates topics of {@code partitions} partitions, replicated three times with min ISR 2. */
    void createTopics(int partitions, String... topics) throws Exception {
        createTopics(partitions, 3, topics);
    }

    /** Creates topics of {@code partitions} partitions and {@code replicas} replicas (min ISR 2 when there are three). */
    void createTopics(int partitions, int replicas, String... topics) throws Exception {
        Map<String, String> configs = replicas >= 3 ? Map.of("min.insync.replicas", "2") : Map.of();
        try (Admin admin = admin()) {
            admin.createTopics(java.util.Arrays.stream(topics)
                            .map(topic -> new NewTopic(topic, partitions, (short) replicas).configs(configs))
                            .toList())
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
    }

    /** The cluster's description of {@code topic}: its id and its partitions' leaders. */
    TopicDescription describe(String topic) throws Exception {
        try (Admin admin = admin()) {
            return admin.describeTopics(List.of(topic))
                    .allTopicNames()
                    .get(60, TimeUnit.SECONDS)
                    .get(topic);
        }
    }

    String bootstrap() {
        return bootstrap;
    }

    private Properties props(String... settings) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.putAll(common);
        for (int i = 0; i + 1 < settings.length; i += 2) {
            props.put(settings[i], settings[i + 1]);
        }
        return props;
    }

    static List<String> names(String prefix, int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(i -> prefix + i)
                .toList();
    }
}
