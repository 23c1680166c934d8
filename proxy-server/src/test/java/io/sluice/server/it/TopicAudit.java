package io.sluice.server.it;

import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.MessageId;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Reader;
import org.apache.pulsar.client.api.Schema;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The checker: reads a whole topic straight from the broker (not through Sluice) and compares it
 * with what each {@link SequencedProducer} saw acknowledged. Per producer it reports acknowledged
 * messages missing from the topic (lost: must be 0), messages stored more than once (duplicated:
 * allowed where Pulsar resends after a lost receipt), and messages stored before one with a
 * smaller sequence number (reordered).
 */
final class TopicAudit {

    /** The verdict for one producer. */
    record Verdict(
            String producer, long sent, long acknowledged, long stored, long lost, long duplicated, long reordered) {
        @Override
        public String toString() {
            return String.format(
                    "%s: sent %d, acknowledged %d, stored %d, lost %d, duplicated %d, reordered %d",
                    producer, sent, acknowledged, stored, lost, duplicated, reordered);
        }
    }

    private final Map<String, Map<Long, Integer>> copies = new HashMap<>();
    private final Map<String, Long> reordered = new HashMap<>();

    /** Reads every message of {@code topic} from the broker at {@code brokerUrl}. */
    static TopicAudit read(String brokerUrl, String topic) throws Exception {
        TopicAudit audit = new TopicAudit();
        Map<String, Long> highest = new HashMap<>();
        try (PulsarClient client = PulsarClient.builder().serviceUrl(brokerUrl).build();
                Reader<byte[]> reader = client.newReader(Schema.BYTES)
                        .topic(topic)
                        .startMessageId(MessageId.earliest)
                        .create()) {
            while (reader.hasMessageAvailable()) {
                Message<byte[]> message = reader.readNext(30, TimeUnit.SECONDS);
                if (message == null) {
                    throw new AssertionError("the topic said it had more messages but none came within 30 s");
                }
                String value = new String(message.getValue(), java.nio.charset.StandardCharsets.UTF_8);
                int colon = value.lastIndexOf(':');
                String producer = value.substring(0, colon);
                long seq = Long.parseLong(value.substring(colon + 1));
                int n = audit.copies
                        .computeIfAbsent(producer, p -> new HashMap<>())
                        .merge(seq, 1, Integer::sum);
                long top = highest.getOrDefault(producer, -1L);
                if (n == 1 && seq < top) {
                    audit.reordered.merge(producer, 1L, Long::sum);
                }
                highest.put(producer, Math.max(top, seq));
            }
        }
        return audit;
    }

    Verdict verdict(SequencedProducer producer) {
        Map<Long, Integer> stored = copies.getOrDefault(producer.name, Map.of());
        Set<Long> lost = new HashSet<>(producer.acknowledged);
        lost.removeAll(stored.keySet());
        long duplicated = stored.values().stream().mapToLong(n -> n - 1).sum();
        return new Verdict(
                producer.name,
                producer.sent.get(),
                producer.acknowledged.size(),
                stored.size(),
                lost.size(),
                duplicated,
                reordered.getOrDefault(producer.name, 0L));
    }
}
