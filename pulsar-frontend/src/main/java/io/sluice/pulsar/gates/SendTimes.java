package io.sluice.pulsar.gates;

/**
 * When each of a producer's forwarded sends left for the broker, oldest first, so that its receipt
 * (the broker answers a producer's sends in order) gives the upstream send latency. A growable ring
 * of longs: no allocation per send once it has grown to the producer's usual backlog.
 */
final class SendTimes {

    private long[] times = new long[16];
    private int head;
    private int size;

    void add(long nanos) {
        if (size == times.length) {
            long[] grown = new long[times.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = times[(head + i) & (times.length - 1)];
            }
            times = grown;
            head = 0;
        }
        times[(head + size) & (times.length - 1)] = nanos;
        size++;
    }

    /** The oldest time, removed; {@code Long.MIN_VALUE} when none is left. */
    long poll() {
        if (size == 0) {
            return Long.MIN_VALUE;
        }
        long nanos = times[head];
        head = (head + 1) & (times.length - 1);
        size--;
        return nanos;
    }
}
