package io.sluice.kafka.codec;

import java.util.Arrays;

/**
 * How much of each partition's records a Fetch response keeps, by the partition's index in the
 * {@link PartitionRecords} it was read into: all of them, or the first so many bytes (the batches
 * the buckets admitted; none for records that cannot be charged). {@link FetchResponseTrim} cuts
 * the response by it. One instance is reused for every response of a connection, on its event
 * loop; it grows to the most partitions a response had, and allocates nothing after.
 */
public final class RecordsKept {

    private static final int ALL = -1;

    /** Per partition: the bytes of its records kept, or {@link #ALL}. */
    private int[] lengths = new int[8];

    private int partitions;
    private boolean anyCut;

    /** A response of {@code partitions} partitions, each keeping all of its records until cut. */
    public void reset(int partitions) {
        if (lengths.length < partitions) {
            lengths = new int[Math.max(partitions, lengths.length * 2)];
        }
        Arrays.fill(lengths, 0, partitions, ALL);
        this.partitions = partitions;
        anyCut = false;
    }

    /** Partition {@code p} keeps the first {@code length} bytes of its records, a whole number of batches. */
    public void cut(int p, int length) {
        lengths[p] = length;
        anyCut = true;
    }

    /** Whether partition {@code p} was cut. */
    public boolean isCut(int p) {
        return lengths[p] != ALL;
    }

    /** Whether any partition was cut: the response must be trimmed. */
    public boolean anyCut() {
        return anyCut;
    }

    /** How many partitions the response has. */
    public int partitions() {
        return partitions;
    }

    /** The bytes partition {@code p} keeps of its records; meaningful where {@link #isCut}. */
    public int length(int p) {
        return lengths[p];
    }
}
