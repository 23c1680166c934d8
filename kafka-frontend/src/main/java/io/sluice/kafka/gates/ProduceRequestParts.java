package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.codec.ProduceRequestCut;
import io.sluice.kafka.codec.ProduceRequestReader;
import io.sluice.kafka.codec.ProduceVerdicts;
import io.sluice.kafka.codec.RecordBatches;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.limits.Direction;
import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;

/**
 * The Produce request being decided, read once: its topics (each found in the connection's
 * {@link TopicTable}, or why not) and its partitions (what each costs and what becomes of it), and
 * the cut of those that go to the broker. What is per request is kept for the next one, so an
 * ordinary request allocates nothing here. Confined to the connection's event loop.
 */
final class ProduceRequestParts {

    /** Decides a partition of a tracked topic, as the gate for the request's {@code acks} does. */
    @FunctionalInterface
    interface TrackedPartition {

        /** Decides partition {@code p} of {@code topic}, whose batches {@link #batches()} just counted, at {@code now}. */
        void decide(GatedTopic topic, int p, Partition partition, long now);
    }

    /** One topic of the request: what the lookup found, and the gate's state of it when tracked. */
    static final class Topic {
        TopicTable.Lookup found;
        GatedTopic gated;
    }

    /** One partition of the request: what it costs and what becomes of it. */
    static final class Partition {
        int records;
        long bytes;
        ProduceOutcome outcome;
        /** Sluice's message when it answers the partition. */
        String message;
    }

    /** Sluice's answer for a partition whose topic id it could not learn; the client retries it. */
    private static final String UNKNOWN_ID_MESSAGE =
            "Sluice could not learn this topic id from the cluster in time; refresh metadata and retry";

    private final GateContext context;
    private final TopicRelease release;
    private final WireCursor cursor = new WireCursor();
    private final PartitionRecords parts = new PartitionRecords();
    private final RecordBatches batches = new RecordBatches();
    /** The partitions that go to the broker. */
    private final BitSet forwarded = new BitSet();

    private Topic[] topics = grown(new Topic[0], 4);
    private Partition[] partitions = grown(new Partition[0], 8);
    private short acks;

    /** @param release what a topic's timer does (see {@link GatedTopic}) */
    ProduceRequestParts(GateContext context, TopicRelease release) {
        this.context = context;
        this.release = release;
    }

    /**
     * Reads the lent request {@code frame}, whose header {@code header} just read (it stays its
     * lender's), notes its arrival ({@link GateContext#arrived}) and returns the time. A request that
     * cannot be read raises a {@link io.sluice.relay.MalformedFrameException}.
     */
    long read(FrameView frame, RequestHeader header) {
        acks = ProduceRequestReader.acks(frame, header, cursor);
        parts.readProduceRequest(frame, header.bodyIndex(), header.apiVersion(), cursor);
        long now = context.arrived(frame, header);
        if (topics.length < parts.topicCount()) {
            topics = grown(topics, Math.max(parts.topicCount(), topics.length * 2));
        }
        if (partitions.length < parts.partitionCount()) {
            partitions = grown(partitions, Math.max(parts.partitionCount(), partitions.length * 2));
        }
        forwarded.clear();
        return now;
    }

    /** The request's {@code timeout_ms}. */
    int timeoutMillis(FrameView frame, RequestHeader header) {
        return ProduceRequestReader.timeoutMillis(frame, header, cursor);
    }

    short acks() {
        return acks;
    }

    PartitionRecords parts() {
        return parts;
    }

    /**
     * Decides every partition of the request read: one with a malformed batch and those of topics
     * the connection does not track here, the rest by {@code decider}.
     */
    void decideEach(TrackedPartition decider, long now) {
        for (int t = 0; t < parts.topicCount(); t++) {
            Topic topic = topic(t, now);
            for (int p = parts.firstPartition(t); p < parts.endPartition(t); p++) {
                Partition partition = count(p);
                if (partition.outcome != null) {
                    continue;
                }
                if (topic.gated == null) {
                    untracked(p);
                } else {
                    decider.decide(topic.gated, p, partition, now);
                }
            }
        }
    }

    /** Topic {@code t}, looked up at {@code now}: its gate state made or re-chained when tracked. */
    private Topic topic(int t, long now) {
        Topic topic = topics[t];
        topic.found = context.topics().find(parts, t, now);
        topic.gated = null;
        if (topic.found instanceof TopicTable.Entry entry) {
            entry.produce = context.gated(entry, entry.produce, Direction.PUBLISH, release);
            topic.gated = entry.produce;
        }
        return topic;
    }

    /** Topic {@code t} as {@link #decideEach} found it. */
    Topic topicAt(int t) {
        return topics[t];
    }

    /**
     * Partition {@code p}, its batches counted ({@link #batches}); its outcome is
     * {@link ProduceOutcome#MALFORMED} already when a batch claims more records than its bytes hold.
     */
    private Partition count(int p) {
        Partition partition = partitions[p];
        batches.count(parts.buffer(), parts.recordsStart(p), parts.recordsLength(p));
        partition.records = (int) Math.min(Integer.MAX_VALUE, batches.records());
        partition.bytes = batches.bytes();
        partition.message = null;
        partition.outcome = batches.overclaimingCount() >= 0 ? overclaiming(partition) : null;
        return partition;
    }

    /** Partition {@code p} as {@link #decideEach} decided it. */
    Partition partitionAt(int p) {
        return partitions[p];
    }

    /** The batches of the partition being decided. */
    RecordBatches batches() {
        return batches;
    }

    /**
     * Sets the outcome of partition {@code p}, noting it among those {@link #forwarded} when it goes
     * to the broker; {@code message} is Sluice's when it answers.
     */
    void decided(int p, ProduceOutcome outcome, String message) {
        partitions[p].outcome = outcome;
        partitions[p].message = message;
        if (outcome == ProduceOutcome.FORWARD) {
            forwarded.set(p);
        }
    }

    /**
     * The outcome of partition {@code p}, of a topic the connection does not track: an invalid name
     * goes on (the broker refuses it and stores nothing), an unknown id is answered UNKNOWN_TOPIC_ID,
     * a topic past the connection's limit is refused; answered or, with {@code acks=0}, dropped.
     */
    private void untracked(int p) {
        TopicTable.Lookup miss = topics[parts.topicOf(p)].found;
        if (miss == TopicTable.Miss.INVALID_NAME) {
            decided(p, ProduceOutcome.FORWARD, null);
        } else if (miss == TopicTable.Miss.FULL) {
            decided(
                    p,
                    ProduceOutcome.REJECT,
                    "Sluice meters at most " + context.topics().maxTopics()
                            + " topics per connection; produce to fewer topics over one connection");
        } else {
            decided(p, ProduceOutcome.UNKNOWN_ID, UNKNOWN_ID_MESSAGE);
        }
    }

    /**
     * A batch of the partition that claims more records than its bytes can hold, which the broker
     * would refuse as corrupt: Sluice refuses it first, charging nothing, so that its count puts no
     * bucket in debt (or, with {@code acks=0}, drops it).
     */
    private ProduceOutcome overclaiming(Partition partition) {
        context.services().stats().protocolError("batch_overclaims_records");
        partition.message = "Sluice refused this batch: it claims " + batches.overclaimingCount()
                + " records, more than its bytes can hold";
        return ProduceOutcome.MALFORMED;
    }

    /** Whether every partition goes to the broker. */
    boolean allForwarded() {
        return forwarded.cardinality() == parts.partitionCount();
    }

    /** Whether no partition goes to the broker. */
    boolean noneForwarded() {
        return forwarded.isEmpty();
    }

    /** The partitions that go to the broker, in order. */
    BitSet forwarded() {
        return forwarded;
    }

    /** A request of the partitions in {@code kept} alone, slices of the original; the caller owns it. */
    ByteBuf cut(BitSet kept) {
        return ProduceRequestCut.keep(context.out().alloc(), parts, kept);
    }

    /** What became of each partition of the request just decided, for the response. */
    ProduceVerdicts verdicts(short version) {
        ProduceVerdicts verdicts = new ProduceVerdicts(version);
        ByteBuf frame = parts.buffer();
        for (int t = 0; t < parts.topicCount(); t++) {
            if (parts.topicsById()) {
                verdicts.topic(null, new Uuid(parts.topicIdMsb(t), parts.topicIdLsb(t)));
            } else {
                verdicts.topic(
                        frame.toString(parts.topicNameIndex(t), parts.topicNameLength(t), StandardCharsets.UTF_8),
                        null);
            }
            for (int p = parts.firstPartition(t); p < parts.endPartition(t); p++) {
                Partition partition = partitions[p];
                int index = parts.partitionIndex(p);
                if (partition.outcome == ProduceOutcome.FORWARD) {
                    verdicts.forwarded(index);
                } else {
                    verdicts.answered(index, partition.outcome.answer, partition.message);
                }
                partition.message = null;
            }
        }
        return verdicts;
    }

    private static Topic[] grown(Topic[] old, int size) {
        Topic[] grown = java.util.Arrays.copyOf(old, size);
        for (int i = old.length; i < size; i++) {
            grown[i] = new Topic();
        }
        return grown;
    }

    private static Partition[] grown(Partition[] old, int size) {
        Partition[] grown = java.util.Arrays.copyOf(old, size);
        for (int i = old.length; i < size; i++) {
            grown[i] = new Partition();
        }
        return grown;
    }
}
