package io.sluice.server;

/**
 * What client connections may take of the process (docs/REFERENCE.md, "Command line").
 *
 * @param maxConnections {@code --max-connections}: client connections each front end keeps open
 *                       at once; past them a new one is closed as soon as it is accepted, and counted
 */
public record ConnectionBounds(int maxConnections) {

    /** 10,000 connections per front end. */
    public static final ConnectionBounds DEFAULTS = new ConnectionBounds(10_000);

    public ConnectionBounds {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
    }
}
