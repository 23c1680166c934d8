package io.sluice.relay;

import io.netty.buffer.ByteBuf;

import java.util.ArrayDeque;

/**
 * Frames a gate holds back, oldest first, with what each costs: a producer's sends under
 * {@code delay}, or a topic's {@code acks=0} batches. Owns every frame from {@link #add} until
 * {@link #poll} hands it back or {@link #releaseAll} releases it. Confined to the connection's
 * event loop.
 */
public final class HeldFrames {

    /** {@link Held#sequenceId()} of a frame that no rejection has to name. */
    public static final long NO_SEQUENCE = -1;

    /**
     * A held frame: the frame, the messages (records) and bytes it costs, the sequence id an answer
     * rejecting it would name (Pulsar's last sequence id of a SEND, read before the frame was held;
     * else {@link #NO_SEQUENCE}), and when it was held.
     */
    public record Held(ByteBuf frame, int messages, long bytes, long sequenceId, long heldAtNanos) {}

    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long messages;
    private long bytes;

    /** Holds {@code frame} behind the others; takes ownership. */
    public void add(ByteBuf frame, int messages, long bytes, long sequenceId, long nowNanos) {
        held.add(new Held(frame, messages, bytes, sequenceId, nowNanos));
        this.messages += messages;
        this.bytes += bytes;
    }

    /** The oldest held frame, still held; {@code null} when none. */
    public Held peek() {
        return held.peek();
    }

    /** Removes the oldest held frame; the caller owns it. */
    public Held poll() {
        Held frame = held.poll();
        if (frame != null) {
            messages -= frame.messages();
            bytes -= frame.bytes();
        }
        return frame;
    }

    /** Releases every held frame, as a closing producer or connection must; returns how many were dropped. */
    public int releaseAll() {
        int dropped = held.size();
        Held frame;
        while ((frame = held.poll()) != null) {
            frame.frame().release();
        }
        messages = 0;
        bytes = 0;
        return dropped;
    }

    public boolean isEmpty() {
        return held.isEmpty();
    }

    /** How many frames are held. */
    public int size() {
        return held.size();
    }

    public long messages() {
        return messages;
    }

    public long bytes() {
        return bytes;
    }
}
