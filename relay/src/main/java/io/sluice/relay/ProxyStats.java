package io.sluice.relay;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters the proxy keeps about its connections, for the metrics endpoint to read. Thread-safe;
 * every event loop updates them.
 */
public final class ProxyStats {

    private final AtomicLong openConnections = new AtomicLong();
    private final LongAdder acceptedConnections = new LongAdder();
    private final LongAdder upstreamConnectFailures = new LongAdder();
    private final LongAdder tlsReloadFailures = new LongAdder();
    private final Map<String, LongAdder> protocolErrors = new ConcurrentHashMap<>();

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

    /** Changed certificate, key or CA files that could not be used; the files in use were kept. */
    public void tlsReloadFailed() {
        tlsReloadFailures.increment();
    }

    public void protocolError(String reason) {
        protocolErrors.computeIfAbsent(reason, r -> new LongAdder()).increment();
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

    /** Reloads of TLS files that failed since start. */
    public long tlsReloadFailures() {
        return tlsReloadFailures.sum();
    }

    /** Connections closed for malformed input, by reason, since start. */
    public Map<String, Long> protocolErrors() {
        Map<String, Long> copy = new TreeMap<>();
        protocolErrors.forEach((reason, count) -> copy.put(reason, count.sum()));
        return copy;
    }
}
