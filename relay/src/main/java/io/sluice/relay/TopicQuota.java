package io.sluice.relay;

import io.sluice.limits.Direction;
import io.sluice.limits.ScopeChain;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;
import io.sluice.status.TopicActivity;
import io.sluice.status.TopicMeter;

/**
 * One producer's or consumer's link to the engine: the quota path of its topic in one direction
 * and its topic's traffic meter, resolved again when the limits change and at least once a second.
 * Re-resolving touches the engine's and the meters' caches, so what is in use never expires.
 *
 * <p>Confined to the connection's event loop; the path and meter it hands out are thread-safe.
 */
public final class TopicQuota {

    private final QuotaEngine quotas;
    private final TopicActivity activity;
    private final Direction direction;
    private final String protocol;
    private final String topic;
    private final ScopeChain chain;
    private QuotaPath path;
    private TopicMeter meter;

    /**
     * @param protocol the front end's protocol, for the meter: {@code pulsar} or {@code kafka}
     * @param chain    the topic's scopes, from the front end's scope model
     */
    public TopicQuota(
            QuotaEngine quotas,
            TopicActivity activity,
            Direction direction,
            String protocol,
            String topic,
            ScopeChain chain) {
        this.quotas = quotas;
        this.activity = activity;
        this.direction = direction;
        this.protocol = protocol;
        this.topic = topic;
        this.chain = chain;
        path(quotas.clock().nanoTime());
    }

    /** The current path; re-resolved (with the meter) when stale. */
    public QuotaPath path(long nowNanos) {
        if (path == null || !path.isCurrent(nowNanos)) {
            path = direction == Direction.PUBLISH ? quotas.publishPath(chain) : quotas.dispatchPath(chain);
            meter = activity.meter(protocol, topic);
        }
        return path;
    }

    /** The topic's meter as of the last resolve. */
    public TopicMeter meter() {
        return meter;
    }

    public String topic() {
        return topic;
    }
}
