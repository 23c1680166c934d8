package io.sluice.kafka.gates;

import io.sluice.kafka.codec.ProduceVerdicts;
import io.sluice.kafka.codec.ResponseFrame;
import org.apache.kafka.common.Uuid;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A request a gate forwarded (whole or cut), awaiting the broker's response: what the response
 * must be given (Sluice's answers for the partitions not forwarded, a throttle time).
 * Each gate keeps a {@link Pool} of them, so an ordinary request allocates
 * nothing.
 */
final class GateExchange implements Exchange {

    /** The gate that forwarded the request and reads its response. */
    @FunctionalInterface
    interface Owner {

        /** The broker's response to {@code exchange}'s request; see {@link Exchange#complete}. */
        void completed(GateExchange exchange, ResponseFrame response);
    }

    /** A gate's exchanges not in use. */
    static final class Pool {

        private final Owner owner;
        private final int capacity;
        private final ArrayDeque<GateExchange> free = new ArrayDeque<>();

        /** @param capacity how many unused exchanges are kept */
        Pool(Owner owner, int capacity) {
            this.owner = owner;
            this.capacity = capacity;
        }

        /** An exchange for a request forwarded with {@code verdicts} and {@code notifyMillis} to give its response. */
        GateExchange take(ProduceVerdicts verdicts, int notifyMillis) {
            GateExchange exchange = free.poll();
            if (exchange == null) {
                exchange = new GateExchange(this);
            }
            exchange.verdicts = verdicts;
            exchange.notifyMillis = notifyMillis;
            return exchange;
        }

        private void recycle(GateExchange exchange) {
            exchange.verdicts = null;
            Arrays.fill(exchange.chargedEntries, 0, exchange.charges, null);
            Arrays.fill(exchange.chargedTopics, 0, exchange.charges, null);
            exchange.charges = 0;
            if (free.size() < capacity) {
                free.push(exchange);
            }
        }
    }

    private final Pool pool;
    private ProduceVerdicts verdicts;
    private int notifyMillis;
    /** The partitions forwarded and charged, in parallel arrays kept for the exchange's next use. */
    private TopicTable.Entry[] chargedEntries = new TopicTable.Entry[4];

    private GatedTopic[] chargedTopics = new GatedTopic[4];
    private int[] chargedPartitions = new int[4];
    private int[] chargedRecords = new int[4];
    private long[] chargedBytes = new long[4];
    private int charges;

    private GateExchange(Pool pool) {
        this.pool = pool;
    }

    /** Sluice's answers to merge in; null when the request went whole. */
    ProduceVerdicts verdicts() {
        return verdicts;
    }

    /** Partition {@code partition} of {@code entry}'s topic went to the broker, charged {@code records} and {@code bytes}. */
    void charged(TopicTable.Entry entry, GatedTopic topic, int partition, int records, long bytes) {
        if (charges == chargedEntries.length) {
            int size = charges * 2;
            chargedEntries = Arrays.copyOf(chargedEntries, size);
            chargedTopics = Arrays.copyOf(chargedTopics, size);
            chargedPartitions = Arrays.copyOf(chargedPartitions, size);
            chargedRecords = Arrays.copyOf(chargedRecords, size);
            chargedBytes = Arrays.copyOf(chargedBytes, size);
        }
        chargedEntries[charges] = entry;
        chargedTopics[charges] = topic;
        chargedPartitions[charges] = partition;
        chargedRecords[charges] = records;
        chargedBytes[charges] = bytes;
        charges++;
    }

    /** How many partitions were charged. */
    int charges() {
        return charges;
    }

    /**
     * Gives back the charge of the partition the broker refused, partition {@code partition} of the
     * topic named {@code topic} or {@code topicId}, if this exchange charged it; once only.
     */
    void giveBack(String topic, Uuid topicId, int partition, long nowNanos) {
        for (int i = 0; i < charges; i++) {
            if (chargedTopics[i] != null
                    && chargedPartitions[i] == partition
                    && chargedEntries[i].names(topic, topicId)) {
                chargedTopics[i].quota.path(nowNanos).giveBack(nowNanos, chargedRecords[i], chargedBytes[i]);
                chargedTopics[i] = null;
                return;
            }
        }
    }

    /** Gives back every charge not given back yet: the request never reached the broker. */
    void giveBackAll(long nowNanos) {
        for (int i = 0; i < charges; i++) {
            if (chargedTopics[i] != null) {
                chargedTopics[i].quota.path(nowNanos).giveBack(nowNanos, chargedRecords[i], chargedBytes[i]);
                chargedTopics[i] = null;
            }
        }
    }

    /** Visits each topic a forwarded partition was charged to and not given back, once per partition. */
    void chargedTopics(Consumer<GatedTopic> visitor) {
        for (int i = 0; i < charges; i++) {
            if (chargedTopics[i] != null) {
                visitor.accept(chargedTopics[i]);
            }
        }
    }

    /** The throttle time {@code notify} asks for; 0 for none. */
    int notifyMillis() {
        return notifyMillis;
    }

    @Override
    public void complete(ResponseFrame response) {
        try {
            pool.owner.completed(this, response);
        } finally {
            pool.recycle(this);
        }
    }

    @Override
    public void abandon() {
        pool.recycle(this);
    }
}
