package io.sluice.status;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Who is throttled now, how often throttling started, and how long held sends waited: what
 * {@code /api/v1/throttled} and the throttle metrics report. Thread-safe.
 *
 * <p>Throttle-event counters are per topic, and clients name topics: a counter nobody incremented
 * for {@link #EVENTS_IDLE} is dropped (its series leaves the metrics, as a restarted counter would),
 * and at most {@link TopicActivity#DEFAULT_MAX_TOPICS} are kept, so naming topics grows nothing for good.
 */
public final class ThrottleLedger {

    /**
     * Labels of one throttle-event counter: the identity is the subject's, taken when the throttle
     * starts (never per message); the metrics bound how many identities keep their name.
     *
     * @param identity the subject's identity fields that are {@linkplain IdentityField#metricLabel()
     *     metric labels} (a Kafka principal, a Pulsar role), with their values
     */
    public record EventKey(
            String protocol, String topic, String scope, String reason, String action, ClientIdentity identity) {}

    /**
     * The {@code topic} of the event counter of a throttle that has no topic (a Kafka consumer
     * group's): no topic name can be it.
     */
    public static final String NO_TOPIC = "(none)";

    private final Clock clock;
    private final Set<Throttle> live = ConcurrentHashMap.newKeySet();
    /** How long a throttle-event counter nobody incremented is kept. */
    public static final Duration EVENTS_IDLE = Duration.ofMinutes(10);

    private final Cache<EventKey, LongAdder> events;
    private final Map<String, DelayHistogram> delays = new ConcurrentHashMap<>();

    public ThrottleLedger(Clock clock) {
        this(clock, TopicActivity.DEFAULT_MAX_TOPICS, Ticker.systemTicker());
    }

    /** @param maxEvents throttle-event counters kept at most; {@code ticker} times their expiry */
    public ThrottleLedger(Clock clock, int maxEvents, Ticker ticker) {
        this.clock = clock;
        this.events = Caffeine.newBuilder()
                .expireAfterAccess(EVENTS_IDLE)
                .maximumSize(maxEvents)
                .executor(Runnable::run)
                .ticker(ticker)
                .build();
    }

    /** {@code subject} starts being throttled at {@code scope} for {@code reason}, the proxy taking {@code action}. */
    public Throttle begin(ThrottleSubject subject, String scope, String reason, String action) {
        Throttle throttle = new Throttle(subject, scope, reason, action, clock.instant());
        live.add(throttle);
        events.get(
                        new EventKey(
                                subject.protocol(),
                                subject.topic() == null ? NO_TOPIC : subject.topic(),
                                scope,
                                reason,
                                action,
                                subject.identity().metricLabels()),
                        k -> new LongAdder())
                .increment();
        return throttle;
    }

    /** The throttle is over: nothing is held for that client any more. */
    public void end(Throttle throttle) {
        live.remove(throttle);
    }

    /** A held send of a producer throttled at {@code scope} was released after {@code nanos}. */
    public void delayed(String scope, long nanos) {
        delays.computeIfAbsent(scope, s -> new DelayHistogram()).observe(nanos);
    }

    /** The clients throttled now, oldest first. */
    public List<ThrottledClient> throttled() {
        List<ThrottledClient> list = new ArrayList<>();
        for (Throttle t : live) {
            list.add(t.view());
        }
        list.sort(Comparator.comparing(ThrottledClient::since)
                .thenComparing(ThrottledClient::topic, Comparator.nullsFirst(Comparator.naturalOrder())));
        return list;
    }

    /** Throttle starts since launch, by labels. */
    public Map<EventKey, Long> events() {
        Map<EventKey, Long> copy = new TreeMap<>(Comparator.comparing(EventKey::protocol)
                .thenComparing(EventKey::topic)
                .thenComparing(EventKey::scope)
                .thenComparing(EventKey::reason)
                .thenComparing(EventKey::action)
                .thenComparing(key -> key.identity().toString()));
        events.asMap().forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /** Delay distributions by scope. */
    public Map<String, DelayHistogram> delays() {
        return new TreeMap<>(delays);
    }
}
