package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.relay.FrameView;

import java.util.Arrays;

/**
 * Where everything about each partition lies in one Produce request or Fetch response: its topic
 * (by name or by id), its index, its records, and the byte ranges a request can be cut or a
 * response trimmed at. Filled by {@link #readProduceRequest} or {@link #readFetchResponse}, which
 * walk the body in place along the version's schema ({@link RecordsLayout}); reading copies
 * nothing and, once the arrays have grown to the largest frame seen, allocates nothing.
 *
 * <p>Indexes are into the buffer of the frame read last, which must stay as it is while they are
 * used (a lent frame: during the call). One instance is reused for every frame of a connection, on
 * its event loop.
 */
public final class PartitionRecords {

    // One row of ints per topic and per partition, so that growing is one copy whatever is kept.
    private static final int TOPIC_START = 0;
    private static final int NAME_INDEX = 1;
    private static final int NAME_LENGTH = 2;
    private static final int COUNT_INDEX = 3;
    private static final int PARTITIONS_END = 4;
    private static final int TOPIC_END = 5;
    private static final int FIRST_PARTITION = 6;
    private static final int TOPIC_INTS = 7;

    private static final int TOPIC = 0;
    private static final int INDEX = 1;
    private static final int PARTITION_START = 2;
    private static final int PARTITION_END = 3;
    private static final int LENGTH_INDEX = 4;
    private static final int RECORDS_START = 5;
    private static final int RECORDS_LENGTH = 6;
    private static final int PARTITION_INTS = 7;

    private ByteBuf buffer;
    private int frameIndex;
    private int frameEnd;
    private RecordsLayout layout;

    int topicsCountIndex;
    int topicsEnd;

    private int topicCount;
    private int[] topics = new int[4 * TOPIC_INTS];
    /** Two longs per topic: the high and low half of its id. */
    private long[] topicIds = new long[4 * 2];

    private int partitionCount;
    private int[] partitions = new int[8 * PARTITION_INTS];

    /**
     * Reads the Produce request {@code frame}, whose body (version {@code version}) starts at
     * {@code bodyIndex}. A body that does not fit the schema raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_produce}).
     */
    public PartitionRecords readProduceRequest(FrameView frame, int bodyIndex, short version, WireCursor cursor) {
        return read(RecordsLayout.produceRequest(version), frame, bodyIndex, cursor);
    }

    /**
     * Reads the Fetch response {@code frame}, whose body (version {@code version}) starts at
     * {@code bodyIndex}. A body that does not fit the schema raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}).
     */
    public PartitionRecords readFetchResponse(FrameView frame, int bodyIndex, short version, WireCursor cursor) {
        return read(RecordsLayout.fetchResponse(version), frame, bodyIndex, cursor);
    }

    private PartitionRecords read(RecordsLayout layout, FrameView frame, int bodyIndex, WireCursor cursor) {
        this.buffer = frame.buffer();
        this.frameIndex = frame.index();
        this.frameEnd = frame.index() + frame.length();
        this.layout = layout;
        topicCount = 0;
        partitionCount = 0;
        layout.walk(frame, bodyIndex, cursor, this);
        return this;
    }

    /** The buffer of the frame read last, which every index here is into. */
    public ByteBuf buffer() {
        return buffer;
    }

    /** Where the frame read last starts (its size prefix). */
    int frameIndex() {
        return frameIndex;
    }

    /** One past the frame read last's last byte. */
    int frameEnd() {
        return frameEnd;
    }

    public int topicCount() {
        return topicCount;
    }

    public int partitionCount() {
        return partitionCount;
    }

    /** Whether topics are named by id (Produce v13, Fetch v13 and later) rather than by name. */
    public boolean topicsById() {
        return layout.topicsById();
    }

    /** Whether counts and lengths are written compact (the flexible versions). */
    boolean compact() {
        return layout.compact();
    }

    /** Whether records lengths are written compact. */
    boolean compactRecords() {
        return layout.compactRecords();
    }

    /** Where topic {@code t}'s name starts in {@link #buffer()}; its UTF-8 bytes are {@link #topicNameLength} long. */
    public int topicNameIndex(int t) {
        return topics[t * TOPIC_INTS + NAME_INDEX];
    }

    public int topicNameLength(int t) {
        return topics[t * TOPIC_INTS + NAME_LENGTH];
    }

    /** The high half of topic {@code t}'s id, when {@link #topicsById}. */
    public long topicIdMsb(int t) {
        return topicIds[t * 2];
    }

    public long topicIdLsb(int t) {
        return topicIds[t * 2 + 1];
    }

    /** The first of topic {@code t}'s partitions, which are numbered on from there up to {@link #endPartition}. */
    public int firstPartition(int t) {
        return topics[t * TOPIC_INTS + FIRST_PARTITION];
    }

    /** One past topic {@code t}'s last partition. */
    public int endPartition(int t) {
        return t + 1 < topicCount ? firstPartition(t + 1) : partitionCount;
    }

    /** The topic partition {@code p} belongs to. */
    public int topicOf(int p) {
        return partitions[p * PARTITION_INTS + TOPIC];
    }

    /** Partition {@code p}'s index within its topic, as the message gives it. */
    public int partitionIndex(int p) {
        return partitions[p * PARTITION_INTS + INDEX];
    }

    /** Where partition {@code p}'s records start in {@link #buffer()}. */
    public int recordsStart(int p) {
        return partitions[p * PARTITION_INTS + RECORDS_START];
    }

    /** How many bytes of records partition {@code p} has; -1 for null records. */
    public int recordsLength(int p) {
        return partitions[p * PARTITION_INTS + RECORDS_LENGTH];
    }

    /** Where topic {@code t} starts: its name or id. */
    int topicStart(int t) {
        return topics[t * TOPIC_INTS + TOPIC_START];
    }

    /** Where topic {@code t}'s partition count starts. */
    int partitionsCountIndex(int t) {
        return topics[t * TOPIC_INTS + COUNT_INDEX];
    }

    /** Where topic {@code t}'s partitions end: its own trailing fields follow. */
    int partitionsEnd(int t) {
        return topics[t * TOPIC_INTS + PARTITIONS_END];
    }

    int topicEnd(int t) {
        return topics[t * TOPIC_INTS + TOPIC_END];
    }

    int partitionStart(int p) {
        return partitions[p * PARTITION_INTS + PARTITION_START];
    }

    int partitionEnd(int p) {
        return partitions[p * PARTITION_INTS + PARTITION_END];
    }

    /** Where partition {@code p}'s records length is written. */
    int recordsLengthIndex(int p) {
        return partitions[p * PARTITION_INTS + LENGTH_INDEX];
    }

    int addTopic(int start) {
        if ((topicCount + 1) * TOPIC_INTS > topics.length) {
            topics = Arrays.copyOf(topics, topics.length * 2);
            topicIds = Arrays.copyOf(topicIds, topicIds.length * 2);
        }
        int t = topicCount++;
        int row = t * TOPIC_INTS;
        Arrays.fill(topics, row, row + TOPIC_INTS, -1);
        topics[row + TOPIC_START] = start;
        topics[row + NAME_LENGTH] = 0;
        topics[row + FIRST_PARTITION] = partitionCount;
        topicIds[t * 2] = 0;
        topicIds[t * 2 + 1] = 0;
        return t;
    }

    void topicName(int t, int index, int length) {
        topics[t * TOPIC_INTS + NAME_INDEX] = index;
        topics[t * TOPIC_INTS + NAME_LENGTH] = length;
    }

    void topicId(int t, long msb, long lsb) {
        topicIds[t * 2] = msb;
        topicIds[t * 2 + 1] = lsb;
    }

    void partitionsCountIndex(int t, int index) {
        topics[t * TOPIC_INTS + COUNT_INDEX] = index;
    }

    void topicEnds(int t, int partitionsEnd, int end) {
        topics[t * TOPIC_INTS + PARTITIONS_END] = partitionsEnd;
        topics[t * TOPIC_INTS + TOPIC_END] = end;
    }

    int addPartition(int t, int start) {
        if ((partitionCount + 1) * PARTITION_INTS > partitions.length) {
            partitions = Arrays.copyOf(partitions, partitions.length * 2);
        }
        int p = partitionCount++;
        int row = p * PARTITION_INTS;
        Arrays.fill(partitions, row, row + PARTITION_INTS, -1);
        partitions[row + TOPIC] = t;
        partitions[row + PARTITION_START] = start;
        partitions[row + RECORDS_START] = start;
        return p;
    }

    void partitionIndex(int p, int index) {
        partitions[p * PARTITION_INTS + INDEX] = index;
    }

    void records(int p, int lengthIndex, int start, int length) {
        partitions[p * PARTITION_INTS + LENGTH_INDEX] = lengthIndex;
        partitions[p * PARTITION_INTS + RECORDS_START] = start;
        partitions[p * PARTITION_INTS + RECORDS_LENGTH] = length;
    }

    void partitionEnd(int p, int end) {
        partitions[p * PARTITION_INTS + PARTITION_END] = end;
    }
}
