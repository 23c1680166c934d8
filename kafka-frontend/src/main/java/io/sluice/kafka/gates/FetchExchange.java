package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;

/**
 * A Fetch request the gate forwarded, awaiting the broker's response, whose records the gate
 * charges (and trims) before the client sees them. Reused by the gate once answered.
 */
final class FetchExchange implements Exchange {

    private final FetchGate gate;
    private short version;

    FetchExchange(FetchGate gate) {
        this.gate = gate;
    }

    void start(short version) {
        this.version = version;
    }

    short version() {
        return version;
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
