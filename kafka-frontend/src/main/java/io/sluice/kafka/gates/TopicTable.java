package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.scopes.KafkaNames;
import org.apache.kafka.common.Uuid;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The topics one connection's requests name, found by the bytes of the name in the frame, or by
 * the topic id (resolved once through {@link TopicIds}): every Produce request and Fetch response
 * names its topics, and turning each name into a string would allocate on every one. A lookup
 * returns the topic or why there is none ({@link Lookup}). Who the connection is, which its topics'
 * scopes name, is {@link ConnectionIdentity}'s.
 *
 * <p>A name is checked before anything is kept for it (1 to 249 of {@code [a-zA-Z0-9._-]}, as
 * the broker requires): an invalid one is never tracked, and the broker refuses it. At most
 * {@link #maxTopics()} topics are tracked ({@code --max-topics-per-connection}); a new one past that, once the idle are dropped, is not,
 * and the gates refuse its records. Topics nobody used for {@link #IDLE_NANOS} and nothing is
 * outstanding for are dropped by {@link #sweep}, so a client that touches many topics leaves
 * nothing behind. Confined to the connection's event loop.
 */
final class TopicTable {

    /** How long a topic with nothing outstanding is kept unused. */
    static final long IDLE_NANOS = 60_000_000_000L;

    private static final long SWEEP_EVERY_NANOS = 10_000_000_000L;
    /** How often a full table looks for idle topics to drop, at most. */
    private static final long FULL_SWEEP_EVERY_NANOS = 1_000_000_000L;

    /** What a lookup found: the topic's {@link Entry}, or the {@link Miss} that says why there is none. */
    sealed interface Lookup permits Entry, Miss {}

    /** Why a lookup found no topic. */
    enum Miss implements Lookup {
        /** A topic id neither this connection nor the shared ids know. */
        UNKNOWN_ID,
        /** A name the broker refuses: nothing is kept for it. */
        INVALID_NAME,
        /** {@link #maxTopics()} are tracked already. */
        FULL
    }

    /** One topic: its name, how it is found, and each gate's state for it. */
    static final class Entry implements Lookup {
        final String name;
        private final byte[] nameBytes;
        private final int hash;
        private Entry next;
        private boolean hasId;
        private long idMsb;
        private long idLsb;
        private Entry nextById;
        long lastUsedNanos;
        GatedTopic produce;
        GatedTopic fetch;

        private Entry(String name, byte[] nameBytes, int hash) {
            this.name = name;
            this.nameBytes = nameBytes;
            this.hash = hash;
        }

        /** Whether a response naming {@code topic} (before Produce v13) or {@code topicId} (from v13) means this topic. */
        boolean names(String topic, Uuid topicId) {
            if (topicId != null && !Uuid.ZERO_UUID.equals(topicId)) {
                return hasId && idMsb == topicId.getMostSignificantBits() && idLsb == topicId.getLeastSignificantBits();
            }
            return name.equals(topic);
        }
    }

    private final TopicIds topicIds;
    private final int maxTopics;
    private Entry[] byName = new Entry[16];
    private Entry[] byId = new Entry[16];
    private int size;
    private int idCount;
    private long sweptAtNanos;
    private long fullSweptAtNanos;

    TopicTable(TopicIds topicIds, int maxTopics, long nowNanos) {
        this.topicIds = topicIds;
        this.maxTopics = maxTopics;
        this.sweptAtNanos = nowNanos;
    }

    /** The topic with id {@code msb}/{@code lsb}, as {@link #find(PartitionRecords, int, long)} finds one. */
    Lookup findById(long msb, long lsb, long nowNanos) {
        return used(byId(msb, lsb, nowNanos), nowNanos);
    }

    /**
     * Topic {@code t} of {@code parts}, created when new; else why not: a topic id no Metadata
     * response has named (no limit can apply to it), an invalid name, a full table.
     */
    Lookup find(PartitionRecords parts, int t, long nowNanos) {
        return used(
                parts.topicsById()
                        ? byId(parts.topicIdMsb(t), parts.topicIdLsb(t), nowNanos)
                        : byName(parts.buffer(), parts.topicNameIndex(t), parts.topicNameLength(t), nowNanos),
                nowNanos);
    }

    private static Lookup used(Lookup found, long nowNanos) {
        if (found instanceof Entry entry) {
            entry.lastUsedNanos = nowNanos;
        }
        return found;
    }

    /** Topics tracked at most. */
    int maxTopics() {
        return maxTopics;
    }

    /** Visits every topic. */
    void forEach(Consumer<Entry> action) {
        for (Entry head : byName) {
            for (Entry e = head; e != null; e = e.next) {
                action.accept(e);
            }
        }
    }

    /**
     * At most every ten seconds, drops the topics unused for {@link #IDLE_NANOS} that neither gate
     * holds, refuses or throttles anything for.
     */
    void sweep(long nowNanos) {
        if (nowNanos - sweptAtNanos < SWEEP_EVERY_NANOS) {
            return;
        }
        sweptAtNanos = nowNanos;
        dropIdle(nowNanos);
    }

    private void dropIdle(long nowNanos) {
        for (int i = 0; i < byName.length; i++) {
            Entry previous = null;
            for (Entry e = byName[i]; e != null; e = e.next) {
                if (nowNanos - e.lastUsedNanos >= IDLE_NANOS && isIdle(e)) {
                    if (e.produce != null) {
                        e.produce.hold.close();
                    }
                    if (e.fetch != null) {
                        e.fetch.hold.close();
                    }
                    if (previous == null) {
                        byName[i] = e.next;
                    } else {
                        previous.next = e.next;
                    }
                    size--;
                    if (e.hasId) {
                        unlinkId(e);
                    }
                } else {
                    previous = e;
                }
            }
        }
    }

    int size() {
        return size;
    }

    private static boolean isIdle(Entry entry) {
        return (entry.produce == null || entry.produce.isIdle()) && (entry.fetch == null || entry.fetch.isIdle());
    }

    private Lookup byName(ByteBuf frame, int index, int length, long nowNanos) {
        int hash = hash(frame, index, length);
        for (Entry e = byName[hash & (byName.length - 1)]; e != null; e = e.next) {
            if (e.hash == hash && sameBytes(e.nameBytes, frame, index, length)) {
                return e;
            }
        }
        if (!isValidName(frame, index, length)) {
            return Miss.INVALID_NAME;
        }
        if (!hasRoom(nowNanos)) {
            return Miss.FULL;
        }
        byte[] bytes = new byte[length];
        frame.getBytes(index, bytes);
        return add(new String(bytes, StandardCharsets.US_ASCII), bytes, hash);
    }

    private Lookup byId(long msb, long lsb, long nowNanos) {
        for (Entry e = byId[idSlot(msb, lsb, byId.length)]; e != null; e = e.nextById) {
            if (e.idMsb == msb && e.idLsb == lsb) {
                return e;
            }
        }
        String name = topicIds.name(new Uuid(msb, lsb));
        if (name == null) {
            return Miss.UNKNOWN_ID;
        }
        if (!(byName(name, nowNanos) instanceof Entry entry)) {
            return Miss.FULL;
        }
        if (entry.hasId) {
            // The topic was recreated under a new id: the old one is of no use any more.
            unlinkId(entry);
        }
        entry.hasId = true;
        entry.idMsb = msb;
        entry.idLsb = lsb;
        if (++idCount > byId.length * 3 / 4) {
            byId = rehashIds(byId.length * 2);
        }
        int slot = idSlot(msb, lsb, byId.length);
        entry.nextById = byId[slot];
        byId[slot] = entry;
        return entry;
    }

    private Lookup byName(String name, long nowNanos) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        int hash = hash(bytes);
        for (Entry e = byName[hash & (byName.length - 1)]; e != null; e = e.next) {
            if (e.hash == hash && e.name.equals(name)) {
                return e;
            }
        }
        return hasRoom(nowNanos) ? add(name, bytes, hash) : Miss.FULL;
    }

    /** Room for one more topic: below {@link #maxTopics()}, or once the idle ones are dropped (at most once a second). */
    private boolean hasRoom(long nowNanos) {
        if (size < maxTopics) {
            return true;
        }
        if (nowNanos - fullSweptAtNanos >= FULL_SWEEP_EVERY_NANOS) {
            fullSweptAtNanos = nowNanos;
            dropIdle(nowNanos);
        }
        return size < maxTopics;
    }

    /** A Kafka topic name: 1 to 249 bytes of {@code [a-zA-Z0-9._-]}. */
    private static boolean isValidName(ByteBuf frame, int index, int length) {
        if (length < 1 || length > KafkaNames.MAX_TOPIC_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            byte b = frame.getByte(index + i);
            boolean legal = (b >= 'a' && b <= 'z')
                    || (b >= 'A' && b <= 'Z')
                    || (b >= '0' && b <= '9')
                    || b == '.'
                    || b == '_'
                    || b == '-';
            if (!legal) {
                return false;
            }
        }
        return true;
    }

    private Entry add(String name, byte[] bytes, int hash) {
        Entry entry = new Entry(name, bytes, hash);
        if (++size > byName.length * 3 / 4) {
            rehashNames(byName.length * 2);
        }
        int slot = entry.hash & (byName.length - 1);
        entry.next = byName[slot];
        byName[slot] = entry;
        return entry;
    }

    private void unlinkId(Entry entry) {
        int slot = idSlot(entry.idMsb, entry.idLsb, byId.length);
        Entry previous = null;
        for (Entry e = byId[slot]; e != null; e = e.nextById) {
            if (e == entry) {
                if (previous == null) {
                    byId[slot] = e.nextById;
                } else {
                    previous.nextById = e.nextById;
                }
                idCount--;
                break;
            }
            previous = e;
        }
        entry.hasId = false;
        entry.nextById = null;
    }

    private void rehashNames(int capacity) {
        Entry[] old = byName;
        byName = new Entry[capacity];
        for (Entry head : old) {
            Entry e = head;
            while (e != null) {
                Entry next = e.next;
                int slot = e.hash & (capacity - 1);
                e.next = byName[slot];
                byName[slot] = e;
                e = next;
            }
        }
    }

    private Entry[] rehashIds(int capacity) {
        Entry[] table = new Entry[capacity];
        for (Entry head : byId) {
            Entry e = head;
            while (e != null) {
                Entry next = e.nextById;
                int slot = idSlot(e.idMsb, e.idLsb, capacity);
                e.nextById = table[slot];
                table[slot] = e;
                e = next;
            }
        }
        return table;
    }

    private static int idSlot(long msb, long lsb, int capacity) {
        long mixed = msb ^ lsb;
        int hash = (int) (mixed ^ (mixed >>> 32));
        return (hash ^ (hash >>> 16)) & (capacity - 1);
    }

    private static int hash(ByteBuf frame, int index, int length) {
        int hash = 1;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + frame.getByte(index + i);
        }
        return spread(hash);
    }

    private static int hash(byte[] bytes) {
        int hash = 1;
        for (byte b : bytes) {
            hash = 31 * hash + b;
        }
        return spread(hash);
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }

    private static boolean sameBytes(byte[] bytes, ByteBuf frame, int index, int length) {
        if (bytes.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (bytes[i] != frame.getByte(index + i)) {
                return false;
            }
        }
        return true;
    }
}
