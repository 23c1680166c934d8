package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.util.ArrayDeque;

/**
 * Frames for the upstream that wait while it is not up yet, oldest first, a few at most: a client
 * that does not wait for the upstream's answer to its first request may send a few more, but
 * many more is abuse. Owns each frame from {@link #add} until it is queued on the upstream or
 * released. Confined to the connection's event loop.
 */
public final class EarlyFrames {

    /** How many frames may wait; one more closes the connection. */
    public static final int MAX = 64;

    private final ArrayDeque<ByteBuf> frames = new ArrayDeque<>();

    EarlyFrames() {}

    /** Keeps {@code frame} behind the others, taking ownership; when {@link #MAX} wait already, releases it and returns false. */
    boolean add(ByteBuf frame) {
        if (frames.size() >= MAX) {
            frame.release();
            return false;
        }
        frames.add(frame);
        return true;
    }

    /** Writes every frame to {@code upstream}, in order and one write each, unflushed; they are the channel's from now. */
    void writeTo(Channel upstream) {
        ByteBuf frame;
        while ((frame = frames.poll()) != null) {
            upstream.write(frame, upstream.voidPromise());
        }
    }

    void releaseAll() {
        ByteBuf frame;
        while ((frame = frames.poll()) != null) {
            frame.release();
        }
    }

    /** How many frames wait. */
    public int size() {
        return frames.size();
    }
}
