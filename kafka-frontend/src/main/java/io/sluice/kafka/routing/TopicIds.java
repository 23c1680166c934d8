package io.sluice.kafka.routing;

import org.apache.kafka.common.Uuid;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Topic names by topic id, learnt from every response that carries both (Metadata,
 * DescribeTopicPartitions, CreateTopics) and from Sluice's own Metadata requests
 * ({@link TopicIdLookup}): Produce v13 and Fetch v13+ name topics by id only, and limits are set by
 * name. Shared by the connections to one cluster, on any event loop. Bounded: past the capacity
 * the least recently used id is forgotten first (a topic deleted and recreated gets a new id, so
 * old ids would otherwise stay forever); a forgotten id is looked up again when a request names it.
 * A connection keeps the ids it uses itself, so this is asked once per connection and id.
 */
public final class TopicIds {

    public static final int DEFAULT_CAPACITY = 100_000;

    private final Map<Uuid, String> names;

    public TopicIds(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.names = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Uuid, String> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Records that {@code id} names {@code name}; ignores the zero id and null names (topics in error). */
    public void learn(Uuid id, String name) {
        if (id == null || Uuid.ZERO_UUID.equals(id) || name == null) {
            return;
        }
        synchronized (names) {
            names.put(id, name);
        }
    }

    /** The name of the topic with this id, or null when Sluice has not learnt it (or forgot it). */
    public String name(Uuid id) {
        synchronized (names) {
            return names.get(id);
        }
    }

    public int size() {
        synchronized (names) {
            return names.size();
        }
    }
}
