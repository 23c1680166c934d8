package io.sluice.server;

import io.sluice.status.TopicActivity;

/**
 * What clients may make Sluice keep (docs/REFERENCE.md, "Command line"): connections, and the
 * topics it tracks for them.
 *
 * @param maxConnections         {@code --max-connections}: client connections each front end keeps
 *                               open at once; past them a new one is closed as soon as it is
 *                               accepted, and counted
 * @param maxTopicsPerConnection {@code --max-topics-per-connection}: topics one client connection
 *                               has Sluice track at most, whatever the client names
 * @param maxTrackedTopics       {@code --max-tracked-topics}: topics whose figures and throttle
 *                               counters Sluice keeps at most, the least used recently dropped first
 */
public record ConnectionBounds(int maxConnections, int maxTopicsPerConnection, int maxTrackedTopics) {

    /** 10,000 connections per front end, 10,000 topics per connection, 100,000 topics in all. */
    public static final ConnectionBounds DEFAULTS =
            new ConnectionBounds(10_000, 10_000, TopicActivity.DEFAULT_MAX_TOPICS);

    public ConnectionBounds {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
        if (maxTopicsPerConnection <= 0) {
            throw new IllegalArgumentException(
                    "maxTopicsPerConnection must be positive, got " + maxTopicsPerConnection);
        }
        if (maxTrackedTopics <= 0) {
            throw new IllegalArgumentException("maxTrackedTopics must be positive, got " + maxTrackedTopics);
        }
    }
}
