package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;

import java.util.ArrayDeque;

/**
 * The {@code acks=0} batches {@code delay} holds for one topic, oldest first, each as a Produce
 * request of its own (a cut of the client's, see {@link io.sluice.kafka.codec.ProduceRequestCut}):
 * with no response to carry a signal, Sluice can only hold them. Owns every request from
 * {@link #add} until {@link #poll} hands it back or {@link #releaseAll} releases it. Confined to
 * the connection's event loop.
 */
final class HeldBatches {

    /** A held batch: its request and what it costs. */
    record Held(ByteBuf request, int records, long bytes, long heldAtNanos) {
    }

    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long records;
    private long bytes;

    /** Holds {@code request} behind the others; takes ownership. */
    void add(ByteBuf request, int records, long bytes, long nowNanos) {
        held.add(new Held(request, records, bytes, nowNanos));
        this.records += records;
        this.bytes += bytes;
    }

    /** The oldest held batch, still held; {@code null} when none. */
    Held peek() {
        return held.peek();
    }

    /** Removes the oldest held batch; the caller owns its request. */
    Held poll() {
        Held batch = held.poll();
        if (batch != null) {
            records -= batch.records();
            bytes -= batch.bytes();
        }
        return batch;
    }

    /** Releases every held request; returns how many there were. */
    int releaseAll() {
        int dropped = held.size();
        Held batch;
        while ((batch = held.poll()) != null) {
            batch.request().release();
        }
        records = 0;
        bytes = 0;
        return dropped;
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    long records() {
        return records;
    }

    long bytes() {
        return bytes;
    }
}
