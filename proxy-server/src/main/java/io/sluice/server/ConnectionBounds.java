package io.sluice.server;

import io.netty.util.internal.PlatformDependent;

/**
 * What client connections may take of the process (docs/REFERENCE.md, "Bounds").
 *
 * @param maxConnections   {@code --max-connections}: client connections each front end keeps open
 *                         at once; past them a new one is closed as soon as it is accepted
 * @param maxBufferedBytes {@code --max-buffered-bytes}: bytes all client connections together may
 *                         hold in frames not yet whole, past which the connections holding the
 *                         largest are not read
 */
public record ConnectionBounds(int maxConnections, long maxBufferedBytes) {

    /** 10,000 connections per front end and a quarter of the direct memory. */
    public static ConnectionBounds defaults() {
        return new ConnectionBounds(10_000, defaultMaxBufferedBytes());
    }

    public ConnectionBounds {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
        if (maxBufferedBytes <= 0) {
            throw new IllegalArgumentException("maxBufferedBytes must be positive, got " + maxBufferedBytes);
        }
    }

    /** A quarter of the direct memory Netty may use: what the frames in the making may take of it. */
    static long defaultMaxBufferedBytes() {
        return PlatformDependent.maxDirectMemory() / 4;
    }
}
