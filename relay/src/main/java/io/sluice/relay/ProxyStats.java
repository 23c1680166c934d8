package io.sluice.relay;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters one front end keeps about its connections, for the metrics endpoint to read, labelled
 * with the front end's protocol. Thread-safe; every event loop updates them, none allocates.
 */
public final class ProxyStats {

    private final String protocol;
    private final AtomicLong openConnections = new AtomicLong();
    private final LongAdder acceptedConnections = new LongAdder();
    private final LongAdder upstreamConnectFailures = new LongAdder();
    private final LongAdder tlsReloadFailures = new LongAdder();
    private final LongAdder bytesFromClients = new LongAdder();
    private final LongAdder bytesToClients = new LongAdder();
    private final Map<String, LongAdder> protocolErrors = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> refusedConnections = new ConcurrentHashMap<>();
    private final String[] requestKinds;
    private final LongAdder[] requests;

    /** A front end that does not count requests by kind. */
    public ProxyStats(String protocol) {
        this(protocol, List.of());
    }

    /**
     * @param protocol     the {@code protocol} label: {@code pulsar} or {@code kafka}
     * @param requestKinds the name of each request kind by its number ({@link #request}); null
     *                     where a number names no kind
     */
    public ProxyStats(String protocol, List<String> requestKinds) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
        this.requestKinds = requestKinds.toArray(String[]::new);
        this.requests = new LongAdder[this.requestKinds.length];
        for (int i = 0; i < requests.length; i++) {
            if (this.requestKinds[i] != null) {
                requests[i] = new LongAdder();
            }
        }
    }

    public String protocol() {
        return protocol;
    }

    public void connectionOpened() {
        openConnections.incrementAndGet();
        acceptedConnections.increment();
    }

    public void connectionClosed() {
        openConnections.decrementAndGet();
    }

    public void upstreamConnectFailed() {
        upstreamConnectFailures.increment();
    }

    /**
     * Changed certificate, key or CA files of a TLS context its ports or its upstream use could not
     * be used; the files in use were kept. The process's total, each failure counted once whoever
     * shares the files, is {@code sluice_tls_reload_failures_total}.
     */
    public void tlsReloadFailed() {
        tlsReloadFailures.increment();
    }

    /** A connection closed as soon as it was accepted, for {@code reason} (e.g. {@code max_connections}). */
    public void connectionRefused(String reason) {
        refusedConnections.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** Connections refused at accept, by reason. */
    public Map<String, Long> refusedConnections() {
        Map<String, Long> counts = new TreeMap<>();
        refusedConnections.forEach((reason, count) -> counts.put(reason, count.sum()));
        return counts;
    }

    public void protocolError(String reason) {
        protocolErrors.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** A client sent a request of kind {@code kind} (a number given a name at construction); others are ignored. */
    public void request(int kind) {
        if (kind >= 0 && kind < requests.length && requests[kind] != null) {
            requests[kind].increment();
        }
    }

    /** {@code bytes} came from a client, to be forwarded or answered. */
    public void bytesFromClient(long bytes) {
        bytesFromClients.add(bytes);
    }

    /** {@code bytes} went to a client. */
    public void bytesToClient(long bytes) {
        bytesToClients.add(bytes);
    }

    /** Client connections open now. */
    public long openConnections() {
        return openConnections.get();
    }

    /** Client connections accepted since start. */
    public long acceptedConnections() {
        return acceptedConnections.sum();
    }

    /** Failed attempts to open an upstream broker connection since start. */
    public long upstreamConnectFailures() {
        return upstreamConnectFailures.sum();
    }

    /** Reloads of its TLS files that failed since start. */
    public long tlsReloadFailures() {
        return tlsReloadFailures.sum();
    }

    /** Connections closed for malformed input, by reason, since start. */
    public Map<String, Long> protocolErrors() {
        Map<String, Long> copy = new TreeMap<>();
        protocolErrors.forEach((reason, count) -> copy.put(reason, count.sum()));
        return copy;
    }

    /** Requests since start by the name of their kind, for each kind seen at least once. */
    public Map<String, Long> requests() {
        Map<String, Long> copy = new TreeMap<>();
        for (int i = 0; i < requests.length; i++) {
            long count = requests[i] == null ? 0 : requests[i].sum();
            if (count > 0) {
                copy.put(requestKinds[i], count);
            }
        }
        return copy;
    }

    /** Bytes received from clients since start (frames whole, size prefixes included). */
    public long bytesFromClients() {
        return bytesFromClients.sum();
    }

    /** Bytes sent to clients since start. */
    public long bytesToClients() {
        return bytesToClients.sum();
    }
}
