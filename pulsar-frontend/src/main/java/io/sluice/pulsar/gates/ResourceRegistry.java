package io.sluice.pulsar.gates;

import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The producers (or consumers) of one connection: id to topic, tracked by id from the moment Sluice
 * forwards the PRODUCER or SUBSCRIBE, kept exact as the protocol goes.
 *
 * <p>A resource is <em>pending</em> once Sluice forwards its PRODUCER or SUBSCRIBE, <em>active</em>
 * once the broker answers PRODUCER_SUCCESS or SUCCESS for that request, and gone after ERROR for the
 * request, CLOSE_PRODUCER / CLOSE_CONSUMER from either side, or TOPIC_MIGRATED. A request Sluice
 * could not tell apart from another one in flight is not forwarded (the caller asks
 * {@link #isRequestPending} and {@link #isPending}): one whose
 * request id is already pending (the broker's answer would name both), or one for an id that is
 * pending (the broker refuses it and keeps the first). A request for an id that is still active
 * never replaces it: the broker answers it with success and keeps the id on its first topic, so
 * Sluice keeps metering the id against that topic. Either way no id the broker has can be one Sluice
 * does not track (docs/REFERENCE.md, "What Sluice trusts").
 *
 * <p>The last few closed ids are remembered: a SEND the client wrote before it saw the broker close
 * its producer is dropped by the broker without an answer, and so by Sluice.
 *
 * <p>A client names as many ids as it likes: at {@link #MAX_PER_CONNECTION} requested and active
 * together the registry is full ({@link #isFull}) and the caller refuses the next request, so one
 * connection cannot make Sluice keep more.
 *
 * <p>Confined to the connection's event loop; not thread-safe.
 *
 * @param <T> the state kept per active resource
 */
final class ResourceRegistry<T> {

    /** Resources, requested and active together, one connection may have Sluice keep. */
    static final int MAX_PER_CONNECTION = 10_000;

    /** How many closed ids are remembered for the sends and permits still on their way. */
    static final int RECENTLY_CLOSED = 16;

    private record Request(long requestId, long id, String topic) {}

    private final LongObjectMap<Request> requests = new LongObjectHashMap<>();
    /** The request creating each id that is not active yet. */
    private final LongObjectMap<Request> pendingIds = new LongObjectHashMap<>();

    private final LongObjectMap<T> active = new LongObjectHashMap<>();
    private final long[] recentlyClosed = new long[RECENTLY_CLOSED];
    private int closedCount;
    private final BiFunction<Long, String, T> factory;

    /** @param factory creates the state of a resource from its id and topic when it turns active */
    ResourceRegistry(BiFunction<Long, String, T> factory) {
        this.factory = factory;
        Arrays.fill(recentlyClosed, -1);
    }

    /** True when the connection has {@link #MAX_PER_CONNECTION} resources requested and active: the next is refused. */
    boolean isFull() {
        return requests.size() + active.size() >= MAX_PER_CONNECTION;
    }

    /** True while a request with id {@code requestId} has no answer from the broker. */
    boolean isRequestPending(long requestId) {
        return requests.containsKey(requestId);
    }

    /**
     * The client's request {@code requestId} to create resource {@code id} on {@code topic} is
     * forwarded; the caller has checked that neither the request id nor the id is pending.
     */
    void requested(long requestId, long id, String topic) {
        Request request = new Request(requestId, id, topic);
        requests.put(requestId, request);
        if (!active.containsKey(id)) {
            pendingIds.put(id, request);
        }
    }

    /**
     * The broker accepted request {@code requestId}. Returns the newly active resource, or null when
     * the request was not one of ours, was answered already (a repeated success, as for a producer
     * waiting for exclusive access), or named an id that is active: the broker's success then
     * confirms the id's first resource, which keeps its topic.
     */
    T succeeded(long requestId) {
        Request request = requests.remove(requestId);
        if (request == null) {
            return null;
        }
        pendingIds.remove(request.id());
        if (active.containsKey(request.id())) {
            return null;
        }
        T state = factory.apply(request.id(), request.topic());
        active.put(request.id(), state);
        return state;
    }

    /** The broker refused request {@code requestId}; returns the id it was creating, or -1 if it was not ours. */
    long failed(long requestId) {
        Request request = requests.remove(requestId);
        if (request == null) {
            return -1;
        }
        pendingIds.remove(request.id());
        return request.id();
    }

    /** Resource {@code id} is closed (by either side, or migrated); returns its state, if it had one. */
    T closed(long id) {
        if (pendingIds.remove(id) != null || active.containsKey(id)) {
            requests.values().removeIf(r -> r.id() == id);
        }
        recentlyClosed[closedCount++ % RECENTLY_CLOSED] = id;
        return active.remove(id);
    }

    /** The active resource {@code id}, or null. */
    T get(long id) {
        return active.get(id);
    }

    /** True while resource {@code id} is being created: forwarded, not answered yet. */
    boolean isPending(long id) {
        return pendingIds.containsKey(id);
    }

    /** True when {@code id} is neither active nor pending and was one of the last closed. */
    boolean isRecentlyClosed(long id) {
        if (active.containsKey(id) || pendingIds.containsKey(id)) {
            return false;
        }
        for (long closed : recentlyClosed) {
            if (closed == id) {
                return true;
            }
        }
        return false;
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
        pendingIds.clear();
        return all;
    }

    /** A snapshot of the active resources. */
    List<T> activeResources() {
        return new ArrayList<>(active.values());
    }
}
