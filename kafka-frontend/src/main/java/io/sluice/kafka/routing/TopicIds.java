package io.sluice.kafka.routing;

import org.apache.kafka.common.Uuid;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Topic names by topic id, learnt from Metadata responses: Produce v13 and Fetch v13+ name topics
 * by id only, and limits are set by name. Shared by the connections to one cluster, on any event
 * loop. Bounded: past the capacity the longest-known ids are forgotten first (a topic deleted and
 * recreated gets a new id, so old ids would otherwise stay forever).
 */
public final class TopicIds {

    public static final int DEFAULT_CAPACITY = 100_000;

    private final int capacity;
    private final Map<Uuid, String> names = new ConcurrentHashMap<>();
    private final Queue<Uuid> learnt = new ConcurrentLinkedQueue<>();

    public TopicIds(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Records that {@code id} names {@code name}; ignores the zero id and null names (topics in error). */
    public void learn(Uuid id, String name) {
        if (id == null || Uuid.ZERO_UUID.equals(id) || name == null) {
            return;
        }
        if (names.put(id, name) == null) {
            learnt.add(id);
            while (names.size() > capacity) {
                Uuid oldest = learnt.poll();
                if (oldest == null) {
                    break;
                }
                names.remove(oldest);
            }
        }
    }

    /** The name of the topic with this id, or null when no Metadata response named it. */
    public String name(Uuid id) {
        return names.get(id);
    }

    public int size() {
        return names.size();
    }
}
