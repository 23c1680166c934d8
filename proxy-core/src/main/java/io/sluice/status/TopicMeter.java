package io.sluice.status;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Traffic of one topic through this proxy: monotonic counters updated on the hot path from any
 * event loop, held gauges, and rates derived from the counters once a second by
 * {@link TopicActivity#sample}.
 */
public final class TopicMeter {

    private final String protocol;
    private final String topic;
    private final LongAdder publishMessages = new LongAdder();
    private final LongAdder publishBytes = new LongAdder();
    private final LongAdder dispatchMessages = new LongAdder();
    private final LongAdder dispatchBytes = new LongAdder();
    private final LongAdder throttleEvents = new LongAdder();
    private final AtomicLong heldMessages = new AtomicLong();
    private final AtomicLong heldBytes = new AtomicLong();

    private long sampledAtNanos;
    private final long[] sampled = new long[4];
    private volatile double[] rates = new double[4];

    TopicMeter(String protocol, String topic, long nowNanos) {
        this.protocol = protocol;
        this.topic = topic;
        this.sampledAtNanos = nowNanos;
    }

    /** The protocol the topic is spoken in: {@code pulsar} or {@code kafka}. */
    public String protocol() {
        return protocol;
    }

    public String topic() {
        return topic;
    }

    /** Messages and bytes the broker was sent for this topic. */
    public void published(int messages, long bytes) {
        publishMessages.add(messages);
        publishBytes.add(bytes);
    }

    /** Messages and bytes the broker dispatched to consumers of this topic. */
    public void dispatched(int messages, long bytes) {
        dispatchMessages.add(messages);
        dispatchBytes.add(bytes);
    }

    /** A producer or consumer of this topic started being throttled. */
    public void throttled() {
        throttleEvents.increment();
    }

    /** Sends held in the proxy changed by {@code messages} and {@code bytes} (negative on release). */
    public void held(long messages, long bytes) {
        heldMessages.addAndGet(messages);
        heldBytes.addAndGet(bytes);
    }

    public long publishMessages() {
        return publishMessages.sum();
    }

    public long publishBytes() {
        return publishBytes.sum();
    }

    public long dispatchMessages() {
        return dispatchMessages.sum();
    }

    public long dispatchBytes() {
        return dispatchBytes.sum();
    }

    public long throttleEvents() {
        return throttleEvents.sum();
    }

    public long heldMessages() {
        return heldMessages.get();
    }

    public long heldBytes() {
        return heldBytes.get();
    }

    /** Recomputes the rates from the counters; called by one sampling thread. */
    synchronized void sample(long nowNanos) {
        long[] now = {publishMessages(), publishBytes(), dispatchMessages(), dispatchBytes()};
        double seconds = (nowNanos - sampledAtNanos) / 1e9;
        if (seconds <= 0) {
            return;
        }
        double[] fresh = new double[4];
        for (int i = 0; i < 4; i++) {
            fresh[i] = (now[i] - sampled[i]) / seconds;
            sampled[i] = now[i];
        }
        sampledAtNanos = nowNanos;
        rates = fresh;
    }

    /** The figures of the last sampling interval. */
    public TopicFigures figures() {
        double[] r = rates;
        return new TopicFigures(protocol, topic, r[0], r[1], r[2], r[3], heldMessages(), heldBytes(), throttleEvents());
    }
}
