package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;

/**
 * The sends a {@code delay} holds for one producer, oldest first, with what they cost. Owns every
 * frame from {@link #add} until {@link #poll} hands it back or {@link #releaseAll} releases it.
 * Confined to the connection's event loop.
 */
final class HeldSends {

    /** A held send: the original frame, what it costs, and the sequence id a rejection of it would name. */
    record HeldSend(ByteBuf frame, int messages, long bytes, long lastSequenceId, long heldAtNanos) {
    }

    private final ArrayDeque<HeldSend> sends = new ArrayDeque<>();
    private long messages;
    private long bytes;

    /** Holds {@code frame} behind the others; takes ownership. */
    void add(ByteBuf frame, int messages, long bytes, long lastSequenceId, long nowNanos) {
        sends.add(new HeldSend(frame, messages, bytes, lastSequenceId, nowNanos));
        this.messages += messages;
        this.bytes += bytes;
    }

    /** The oldest held send, still held; {@code null} when none. */
    HeldSend peek() {
        return sends.peek();
    }

    /** Removes the oldest held send; the caller owns its frame. */
    HeldSend poll() {
        HeldSend send = sends.poll();
        if (send != null) {
            messages -= send.messages();
            bytes -= send.bytes();
        }
        return send;
    }

    /** Releases every held frame, as a closing producer must; returns how many sends were dropped. */
    int releaseAll() {
        int dropped = sends.size();
        HeldSend send;
        while ((send = sends.poll()) != null) {
            send.frame().release();
        }
        messages = 0;
        bytes = 0;
        return dropped;
    }

    boolean isEmpty() {
        return sends.isEmpty();
    }

    int size() {
        return sends.size();
    }

    long messages() {
        return messages;
    }

    long bytes() {
        return bytes;
    }
}
