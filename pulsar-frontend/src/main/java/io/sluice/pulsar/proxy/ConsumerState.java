package io.sluice.pulsar.proxy;

import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.quota.QuotaPath;
import io.sluice.status.Throttle;
import io.sluice.status.TopicMeter;

/**
 * One consumer of a client connection, as the proxy sees it: its topic, its dispatch quota path
 * and the FLOW permits Sluice has not yet passed to the broker. Confined to the connection's
 * event loop.
 */
final class ConsumerState {

    final long consumerId;
    final String topic;

    QuotaPath path;
    TopicMeter meter;
    /** Permits the client granted that the broker has not been given yet. */
    long withheldPermits;
    /** Permits given to the broker for which no message has come back yet. */
    long outstandingPermits;
    ScheduledFuture<?> timer;
    Throttle throttle;

    ConsumerState(long consumerId, String topic) {
        this.consumerId = consumerId;
        this.topic = topic;
    }
}
