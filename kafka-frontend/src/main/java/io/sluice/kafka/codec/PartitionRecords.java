package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;

import java.util.Arrays;

/**
 * Where everything about each partition lies in one Produce request or Fetch response: its topic
 * (by name or by id), its index, its records, and the byte ranges a request can be cut or a
 * response trimmed at. Filled by {@link #readProduceRequest} or {@link #readFetchResponse}, which
 * walk the body in place along the version's schema ({@link RecordsLayout}); reading copies
 * nothing and, once the arrays have grown to the largest frame seen, allocates nothing.
 *
 * <p>Indexes are into the frame read last, which the caller keeps. One instance is reused for
 * every frame of a connection, on its event loop.
 */
public final class PartitionRecords {

    private ByteBuf frame;
    private RecordsLayout layout;

    int topicsCountIndex;
    int topicsCountEnd;
    int topicsEnd;

    private int topicCount;
    int[] topicStart = new int[4];
    private int[] topicNameIndex = new int[4];
    private int[] topicNameLength = new int[4];
    private long[] topicIdMsb = new long[4];
    private long[] topicIdLsb = new long[4];
    int[] partitionsCountIndex = new int[4];
    int[] partitionsCountEnd = new int[4];
    int[] topicPartitionsEnd = new int[4];
    int[] topicEnd = new int[4];
    private int[] firstPartition = new int[4];

    private int partitionCount;
    private int[] partitionTopic = new int[8];
    private int[] partitionIndex = new int[8];
    int[] partitionStart = new int[8];
    int[] partitionEnd = new int[8];
    int[] recordsLengthIndex = new int[8];
    private int[] recordsStart = new int[8];
    private int[] recordsLength = new int[8];

    /**
     * Reads the Produce request {@code frame}, whose body (version {@code version}) starts at
     * {@code bodyIndex}. A body that does not fit the schema raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_produce}).
     */
    public PartitionRecords readProduceRequest(ByteBuf frame, int bodyIndex, short version, WireCursor cursor) {
        return read(RecordsLayout.produceRequest(version), frame, bodyIndex, cursor);
    }

    /**
     * Reads the Fetch response {@code frame}, whose body (version {@code version}) starts at
     * {@code bodyIndex}. A body that does not fit the schema raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}).
     */
    public PartitionRecords readFetchResponse(ByteBuf frame, int bodyIndex, short version, WireCursor cursor) {
        return read(RecordsLayout.fetchResponse(version), frame, bodyIndex, cursor);
    }

    private PartitionRecords read(RecordsLayout layout, ByteBuf frame, int bodyIndex, WireCursor cursor) {
        this.frame = frame;
        this.layout = layout;
        topicCount = 0;
        partitionCount = 0;
        layout.walk(frame, bodyIndex, cursor, this);
        return this;
    }

    /** The frame read last. */
    public ByteBuf frame() {
        return frame;
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

    /** Where topic {@code t}'s name starts in the frame; its UTF-8 bytes are {@link #topicNameLength} long. */
    public int topicNameIndex(int t) {
        return topicNameIndex[t];
    }

    public int topicNameLength(int t) {
        return topicNameLength[t];
    }

    /** The high half of topic {@code t}'s id, when {@link #topicsById}. */
    public long topicIdMsb(int t) {
        return topicIdMsb[t];
    }

    public long topicIdLsb(int t) {
        return topicIdLsb[t];
    }

    /** The first of topic {@code t}'s partitions, which are numbered on from there up to {@link #endPartition}. */
    public int firstPartition(int t) {
        return firstPartition[t];
    }

    /** One past topic {@code t}'s last partition. */
    public int endPartition(int t) {
        return t + 1 < topicCount ? firstPartition[t + 1] : partitionCount;
    }

    /** The topic partition {@code p} belongs to. */
    public int topicOf(int p) {
        return partitionTopic[p];
    }

    /** Partition {@code p}'s index within its topic, as the message gives it. */
    public int partitionIndex(int p) {
        return partitionIndex[p];
    }

    /** Where partition {@code p}'s records start in the frame. */
    public int recordsStart(int p) {
        return recordsStart[p];
    }

    /** How many bytes of records partition {@code p} has; -1 for null records. */
    public int recordsLength(int p) {
        return recordsLength[p];
    }

    int addTopic(int start) {
        if (topicCount == topicStart.length) {
            int size = topicCount * 2;
            topicStart = Arrays.copyOf(topicStart, size);
            topicNameIndex = Arrays.copyOf(topicNameIndex, size);
            topicNameLength = Arrays.copyOf(topicNameLength, size);
            topicIdMsb = Arrays.copyOf(topicIdMsb, size);
            topicIdLsb = Arrays.copyOf(topicIdLsb, size);
            partitionsCountIndex = Arrays.copyOf(partitionsCountIndex, size);
            partitionsCountEnd = Arrays.copyOf(partitionsCountEnd, size);
            topicPartitionsEnd = Arrays.copyOf(topicPartitionsEnd, size);
            topicEnd = Arrays.copyOf(topicEnd, size);
            firstPartition = Arrays.copyOf(firstPartition, size);
        }
        int t = topicCount++;
        topicStart[t] = start;
        topicNameIndex[t] = -1;
        topicNameLength[t] = 0;
        topicIdMsb[t] = 0;
        topicIdLsb[t] = 0;
        firstPartition[t] = partitionCount;
        return t;
    }

    void topicName(int t, int index, int length) {
        topicNameIndex[t] = index;
        topicNameLength[t] = length;
    }

    void topicId(int t, long msb, long lsb) {
        topicIdMsb[t] = msb;
        topicIdLsb[t] = lsb;
    }

    int addPartition(int t, int start) {
        if (partitionCount == partitionStart.length) {
            int size = partitionCount * 2;
            partitionTopic = Arrays.copyOf(partitionTopic, size);
            partitionIndex = Arrays.copyOf(partitionIndex, size);
            partitionStart = Arrays.copyOf(partitionStart, size);
            partitionEnd = Arrays.copyOf(partitionEnd, size);
            recordsLengthIndex = Arrays.copyOf(recordsLengthIndex, size);
            recordsStart = Arrays.copyOf(recordsStart, size);
            recordsLength = Arrays.copyOf(recordsLength, size);
        }
        int p = partitionCount++;
        partitionTopic[p] = t;
        partitionStart[p] = start;
        partitionIndex[p] = -1;
        recordsLengthIndex[p] = -1;
        recordsStart[p] = start;
        recordsLength[p] = -1;
        return p;
    }

    void partitionIndex(int p, int index) {
        partitionIndex[p] = index;
    }

    void records(int p, int lengthIndex, int start, int length) {
        recordsLengthIndex[p] = lengthIndex;
        recordsStart[p] = start;
        recordsLength[p] = length;
    }
}
