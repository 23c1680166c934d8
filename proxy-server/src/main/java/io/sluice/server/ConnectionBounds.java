package io.sluice.server;

import io.netty.util.internal.PlatformDependent;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.IncompleteFrames;
import io.sluice.status.TopicActivity;

import java.time.Duration;
import java.util.Objects;

/**
 * What clients may make Sluice keep (docs/REFERENCE.md, "Command line"): connections, the topics
 * and identities it tracks for them, and the frames they have not finished sending. A bound only
 * one protocol has is that front end's option.
 *
 * @param maxConnections         {@code --max-connections}: client connections each front end keeps
 *                               open at once; past them a new one is closed as soon as it is
 *                               accepted, and counted
 * @param maxTrackedTopics       {@code --max-tracked-topics}: topics whose figures and throttle
 *                               counters Sluice keeps at most, the least used recently dropped first
 * @param maxBufferedBytes       {@code --max-buffered-bytes}: bytes of incomplete client frames the
 *                               process holds before it stops reading the connections with the largest
 * @param frameTimeout           {@code --frame-timeout}: how long a client's frame may take to arrive whole
 * @param maxTrackedIdentities   {@code --max-tracked-identities}: quota buckets of identities (client
 *                               ids, principals, roles, addresses) Sluice keeps at most, the least used
 *                               recently dropped first
 */
public record ConnectionBounds(
        int maxConnections,
        int maxTrackedTopics,
        long maxBufferedBytes,
        Duration frameTimeout,
        int maxTrackedIdentities) {

    /**
     * 10,000 connections per front end, 100,000 topics in all, a
     * quarter of the direct memory in incomplete frames, 30 s for a frame, 100,000 buckets of identities.
     */
    public static final ConnectionBounds DEFAULTS = new ConnectionBounds(
            10_000,
            TopicActivity.DEFAULT_MAX_TOPICS,
            defaultMaxBufferedBytes(),
            IncompleteFrames.DEFAULT_FRAME_TIMEOUT,
            QuotaEngine.DEFAULT_MAX_TRACKED_IDENTITIES);

    public ConnectionBounds {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
        if (maxTrackedTopics <= 0) {
            throw new IllegalArgumentException("maxTrackedTopics must be positive, got " + maxTrackedTopics);
        }
        if (maxBufferedBytes <= 0) {
            throw new IllegalArgumentException("maxBufferedBytes must be positive, got " + maxBufferedBytes);
        }
        Objects.requireNonNull(frameTimeout, "frameTimeout");
        if (maxTrackedIdentities <= 0) {
            throw new IllegalArgumentException("maxTrackedIdentities must be positive, got " + maxTrackedIdentities);
        }
    }

    /** A quarter of the direct memory Netty may allocate in this JVM. */
    static long defaultMaxBufferedBytes() {
        return IncompleteFrames.defaultMaxBytes(PlatformDependent.maxDirectMemory());
    }
}
