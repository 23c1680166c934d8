package io.sluice.server.it.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * SASL through Sluice, whose upstream is the brokers' SASL listener: the handshake and every
 * authentication round trip pass untouched, on the bootstrap port and on each node's port.
 */
class KafkaSaslIT {

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
    void plainClientsProduceAndConsume() throws Exception {
        roundTrip(login(
                "PLAIN",
                "org.apache.kafka.common.security.plain.PlainLoginModule",
                BrokersOnlySluiceReaches.SASL_PASSWORD));
    }

    @Test
    void scramClientsProduceAndConsume() throws Exception {
        roundTrip(login(
                "SCRAM-SHA-256",
                "org.apache.kafka.common.security.scram.ScramLoginModule",
                BrokersOnlySluiceReaches.SASL_PASSWORD));
    }

    @Test
    void aWrongPasswordIsTheBrokersRefusal() {
        KafkaClients wrong = login("SCRAM-SHA-256", "org.apache.kafka.common.security.scram.ScramLoginModule", "wrong");
        try (Admin admin = wrong.admin()) {
            ExecutionException failed = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeCluster().nodes().get(60, TimeUnit.SECONDS));
            assertInstanceOf(SaslAuthenticationException.class, failed.getCause());
        }
    }

    private static void roundTrip(KafkaClients clients) throws Exception {
        String topic = KafkaClientsIT.unique("sasl");
        clients.createTopics(2, topic);
        try (KafkaProducer<String, String> producer = clients.producer()) {
            KafkaClientsIT.awaitAll(KafkaClientsIT.sendNumbered(producer, topic, 2, 0, 500));
        }
        KafkaClientsIT.assertNumberedInOrder(
                KafkaClientsIT.consumeAll(clients.consumer(), java.util.List.of(topic), 500), 2, 500);
    }

    private static KafkaClients login(String mechanism, String module, String password) {
        return KafkaClients.sasl(sluice.bootstrap(), mechanism, module, BrokersOnlySluiceReaches.SASL_USER, password);
    }
}
