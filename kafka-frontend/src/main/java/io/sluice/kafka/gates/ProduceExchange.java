package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.ProduceVerdicts;

/**
 * A Produce request the gate forwarded (whole or cut), awaiting the broker's response: what the
 * response must be given (Sluice's answers for the partitions not forwarded, a throttle time) and
 * when the request left, for the upstream latency admission control watches. Reused by the gate
 * once answered, so an ordinary request allocates nothing.
 */
final class ProduceExchange implements Exchange {

    private final ProduceGate gate;
    private short version;
    private ProduceVerdicts verdicts;
    private int notifyMillis;
    private long sentAtNanos;

    ProduceExchange(ProduceGate gate) {
        this.gate = gate;
    }

    void start(short version, ProduceVerdicts verdicts, int notifyMillis, long sentAtNanos) {
        this.version = version;
        this.verdicts = verdicts;
        this.notifyMillis = notifyMillis;
        this.sentAtNanos = sentAtNanos;
    }

    void clear() {
        verdicts = null;
    }

    short version() {
        return version;
    }

    /** Sluice's answers to merge in; null when the request went whole. */
    ProduceVerdicts verdicts() {
        return verdicts;
    }

    /** The throttle time {@code notify} asks for; 0 for none. */
    int notifyMillis() {
        return notifyMillis;
    }

    long sentAtNanos() {
        return sentAtNanos;
    }

    @Override
    public ByteBuf complete(ByteBuf frame) {
        return gate.completed(this, frame);
    }

    @Override
    public void abandon() {
        gate.recycle(this);
    }
}
