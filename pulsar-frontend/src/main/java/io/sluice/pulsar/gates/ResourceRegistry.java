package io.sluice.pulsar.gates;

import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The producers (or consumers) of one connection: id to topic, kept exact as the protocol goes.
 *
 * <p>A resource is <em>requested</em> by PRODUCER or SUBSCRIBE (keyed by request id),
 * <em>active</em> once the broker answers PRODUCER_SUCCESS or SUCCESS for that request, and gone
 * after ERROR for the request, CLOSE_PRODUCER / CLOSE_CONSUMER from either side, or TOPIC_MIGRATED.
 * A request for an id that is still active never replaces it: the broker answers it with success
 * and keeps the id on its first topic, so Sluice keeps metering the id against that topic (a
 * client that could move an id's accounting to another topic would send to a limited topic while
 * being charged to an unlimited one).
 *
 * <p>A client names as many ids as it likes: past {@link #MAX_PER_CONNECTION} requested and active
 * together a request is refused, so one connection cannot make Sluice keep more.
 *
 * <p>Confined to the connection's event loop; not thread-safe.
 *
 * @param <T> the state kept per active resource
 */
final class ResourceRegistry<T> {

    /** Resources, requested and active together, one connection may have Sluice keep. */
    static final int MAX_PER_CONNECTION = 10_000;

    private record Request(long id, String topic) {}

    private final LongObjectMap<Request> requests = new LongObjectHashMap<>();
    private final LongObjectMap<T> active = new LongObjectHashMap<>();
    private final BiFunction<Long, String, T> factory;

    /** @param factory creates the state of a resource from its id and topic when it turns active */
    ResourceRegistry(BiFunction<Long, String, T> factory) {
        this.factory = factory;
    }

    /**
     * The client asked to create resource {@code id} on {@code topic} with request {@code requestId};
     * false, and nothing kept, when the connection has {@link #MAX_PER_CONNECTION} already.
     */
    boolean requested(long requestId, long id, String topic) {
        if (requests.size() + active.size() >= MAX_PER_CONNECTION && !requests.containsKey(requestId)) {
            return false;
        }
        requests.put(requestId, new Request(id, topic));
        return true;
    }

    /**
     * The broker accepted request {@code requestId}. Returns the newly active resource, or null when
     * the request was not one of ours, was answered already (a repeated success, as for a producer
     * waiting for exclusive access), or named an id that is active: the broker's success then
     * confirms the id's first resource, which keeps its topic.
     */
    T succeeded(long requestId) {
        Request request = requests.remove(requestId);
        if (request == null || active.containsKey(request.id())) {
            return null;
        }
        T state = factory.apply(request.id(), request.topic());
        active.put(request.id(), state);
        return state;
    }

    /** The broker refused request {@code requestId}; true if it was one of ours. */
    boolean failed(long requestId) {
        return requests.remove(requestId) != null;
    }

    /** Resource {@code id} is closed (by either side, or migrated); returns its state, if it had one. */
    T closed(long id) {
        requests.values().removeIf(r -> r.id() == id);
        return active.remove(id);
    }

    /** The active resource {@code id}, or null. */
    T get(long id) {
        return active.get(id);
    }

    /** Number of active resources. */
    int activeCount() {
        return active.size();
    }

    /** Number of requests the broker has not answered yet. */
    int pendingCount() {
        return requests.size();
    }

    /** Removes and returns every active resource, for a connection that closes. */
    List<T> clear() {
        List<T> all = new ArrayList<>(active.values());
        active.clear();
        requests.clear();
        return all;
    }

    /** A snapshot of the active resources. */
    List<T> activeResources() {
        return new ArrayList<>(active.values());
    }
}
