package io.sluice.kafka.gates;

import java.util.Arrays;

/**
 * The topics of one connection's share session (KIP-932): the topic ids its ShareFetch requests
 * named since the session opened and did not forget, at most as many as the connection tracks.
 * Each id is kept as its two halves, side by side by the topic's place; one instance serves the
 * connection's life and grows to the most topics its session had, allocating nothing after.
 *
 * <p>Confined to the connection's event loop.
 */
final class ShareSessionTopics {

    private long[] idMsb = new long[8];
    private long[] idLsb = new long[8];
    private int count;

    /** A new session (epoch 0): no topic yet. */
    void open() {
        count = 0;
    }

    /** Adds the topic of id {@code msb}:{@code lsb} unless it is in already or {@code most} are. */
    void add(long msb, long lsb, int most) {
        if (indexOf(msb, lsb) >= 0 || count >= most) {
            return;
        }
        if (count == idMsb.length) {
            idMsb = Arrays.copyOf(idMsb, count * 2);
            idLsb = Arrays.copyOf(idLsb, count * 2);
        }
        idMsb[count] = msb;
        idLsb[count] = lsb;
        count++;
    }

    /** The request forgets the topic of id {@code msb}:{@code lsb}: the last topic takes its place. */
    void forget(long msb, long lsb) {
        int t = indexOf(msb, lsb);
        if (t < 0) {
            return;
        }
        count--;
        idMsb[t] = idMsb[count];
        idLsb[t] = idLsb[count];
    }

    /** How many topics the session has. */
    int count() {
        return count;
    }

    /** The high half of topic {@code t}'s id. */
    long idMsb(int t) {
        return idMsb[t];
    }

    /** The low half of topic {@code t}'s id. */
    long idLsb(int t) {
        return idLsb[t];
    }

    private int indexOf(long msb, long lsb) {
        for (int t = 0; t < count; t++) {
            if (idMsb[t] == msb && idLsb[t] == lsb) {
                return t;
            }
        }
        return -1;
    }
}
