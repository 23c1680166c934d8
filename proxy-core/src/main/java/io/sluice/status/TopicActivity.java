package io.sluice.status;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The {@link TopicMeter} of every topic seen recently. A topic nobody has used for the idle time is
 * forgotten, so a million short-lived topics cost no lasting memory, and at most
 * {@code maxTopics} are kept whatever clients name (past that, those least used recently go first),
 * which bounds {@code /api/v1/topics} too. Producers and consumers keep a reference to their topic's
 * meter while they live and {@link #meter touch} it again when their quota path is refreshed, so a
 * meter in use is dropped only when more topics than that are in use.
 */
public final class TopicActivity {

    /** A topic name is unique within its protocol only: a Kafka and a Pulsar topic may share it. */
    private record TopicKey(String protocol, String topic) {}

    private final Cache<TopicKey, TopicMeter> meters;
    private final Ticker ticker;

    /** Topics kept at most by default: {@code --max-tracked-topics}. */
    public static final int DEFAULT_MAX_TOPICS = 100_000;

    public TopicActivity(Duration idle) {
        this(idle, DEFAULT_MAX_TOPICS, Ticker.systemTicker());
    }

    public TopicActivity(Duration idle, int maxTopics) {
        this(idle, maxTopics, Ticker.systemTicker());
    }

    public TopicActivity(Duration idle, Ticker ticker) {
        this(idle, DEFAULT_MAX_TOPICS, ticker);
    }

    public TopicActivity(Duration idle, int maxTopics, Ticker ticker) {
        this.ticker = ticker;
        this.meters = Caffeine.newBuilder()
                .expireAfterAccess(idle)
                .maximumSize(maxTopics)
                .executor(Runnable::run)
                .ticker(ticker)
                .build();
    }

    /** Topics kept now (an estimate while evictions are under way). */
    public long size() {
        return meters.estimatedSize();
    }

    /** The meter of {@code topic} of {@code protocol}, created when absent. */
    public TopicMeter meter(String protocol, String topic) {
        return meters.get(
                new TopicKey(protocol, topic), key -> new TopicMeter(key.protocol(), key.topic(), ticker.read()));
    }

    /** Recomputes every meter's rates; call about once a second from one thread. */
    public void sample() {
        long now = ticker.read();
        meters.asMap().values().forEach(m -> m.sample(now));
    }

    /** Every live meter, busiest publisher first. */
    public List<TopicMeter> meters() {
        List<TopicMeter> all = new ArrayList<>(meters.asMap().values());
        all.sort(Comparator.comparingLong(TopicMeter::publishMessages)
                .reversed()
                .thenComparing(TopicMeter::topic)
                .thenComparing(TopicMeter::protocol));
        return all;
    }
}
