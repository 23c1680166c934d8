package io.sluice.kafka.codec;

import io.sluice.relay.MalformedFrameException;

/**
 * The requests of one connection the broker has yet to answer, oldest first. A broker answers a
 * connection's requests in order, so each response belongs to the oldest entry; what is kept per
 * request is what reading its response needs: the API key and version (the response's schema and
 * header version), when it was sent on, and a {@code context} of the caller's choosing.
 *
 * <p>Requests that get no response (Produce with {@code acks=0}) must not be added. The capacity
 * bounds what a pipelining client can make the proxy remember; adding past it raises a
 * {@link MalformedFrameException}. Confined to the connection's event loop; no allocation per request.
 *
 * @param <T> what the connection keeps per request besides key and version
 */
public final class InFlightRequests<T> {

    /** Far above a Java client's {@code max.in.flight.requests.per.connection} (5). */
    public static final int DEFAULT_CAPACITY = 1024;

    private final short[] apiKeys;
    private final short[] apiVersions;
    private final int[] correlationIds;
    private final long[] sentAtNanos;
    private final Object[] contexts;
    private int head;
    private int size;

    public InFlightRequests(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        apiKeys = new short[capacity];
        apiVersions = new short[capacity];
        correlationIds = new int[capacity];
        sentAtNanos = new long[capacity];
        contexts = new Object[capacity];
    }

    /** Remembers a request the broker will answer, sent on at {@code sentAtNanos} (a {@code System.nanoTime()}). */
    public void add(short apiKey, short apiVersion, int correlationId, long sentAtNanos, T context) {
        if (size == apiKeys.length) {
            throw new MalformedFrameException(
                    "too_many_in_flight",
                    "client has " + size + " requests awaiting a response, the most Sluice tracks per connection");
        }
        int slot = (head + size) % apiKeys.length;
        apiKeys[slot] = apiKey;
        apiVersions[slot] = apiVersion;
        correlationIds[slot] = correlationId;
        this.sentAtNanos[slot] = sentAtNanos;
        contexts[slot] = context;
        size++;
    }

    /**
     * Checks that a response with {@code correlationId} answers the oldest request: anything else
     * means the broker's responses cannot be matched to requests any more.
     */
    public void expect(int correlationId) {
        if (size == 0) {
            throw new MalformedFrameException(
                    "unexpected_response", "response " + correlationId + " with no request in flight");
        }
        if (correlationIds[head] != correlationId) {
            throw new MalformedFrameException(
                    "unexpected_response",
                    "response " + correlationId + " where the oldest request in flight is " + correlationIds[head]);
        }
    }

    public short oldestApiKey() {
        requireOldest();
        return apiKeys[head];
    }

    public short oldestApiVersion() {
        requireOldest();
        return apiVersions[head];
    }

    public int oldestCorrelationId() {
        requireOldest();
        return correlationIds[head];
    }

    public long oldestSentAtNanos() {
        requireOldest();
        return sentAtNanos[head];
    }

    @SuppressWarnings("unchecked")
    public T oldestContext() {
        requireOldest();
        return (T) contexts[head];
    }

    /** Forgets the oldest request, once its response has been handled. */
    public void removeOldest() {
        requireOldest();
        contexts[head] = null;
        head = (head + 1) % apiKeys.length;
        size--;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int capacity() {
        return apiKeys.length;
    }

    private void requireOldest() {
        if (size == 0) {
            throw new IllegalStateException("no request in flight");
        }
    }
}
