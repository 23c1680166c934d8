package io.sluice.status;

import com.github.benmanes.caffeine.cache.Ticker;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What clients name cannot grow the per-topic figures or the throttle counters without bound. */
class StatusBoundsTest {

    private final AtomicLong nanos = new AtomicLong();
    private final Ticker ticker = nanos::get;

    @Test
    void topicActivityKeepsAtMostItsMaximumAndSoDoesTheListing() {
        TopicActivity activity = new TopicActivity(Duration.ofMinutes(10), 100, ticker);
        for (int i = 0; i < 10_000; i++) {
            activity.meter("kafka", "flood-" + i);
        }
        TopicMeter busy = activity.meter("kafka", "busy");
        busy.published(1, 1);
        assertTrue(
                activity.meters().size() <= 100, "listed: " + activity.meters().size());
        assertTrue(activity.size() <= 100);
    }

    @Test
    void throttleEventCountersNobodyIncrementsExpireAndAreBounded() {
        ThrottleLedger ledger = new ThrottleLedger(Clock.systemUTC(), 50, ticker);
        ThrottleSubject old = new ThrottleSubject("kafka", "client", "old-topic", ClientIdentity.NONE);
        ledger.end(ledger.begin(old, "topic", "publish_messages", "delay"));
        assertEquals(1, ledger.events().size());

        nanos.addAndGet(TimeUnit.MINUTES.toNanos(11));
        for (int i = 0; i < 1_000; i++) {
            ThrottleSubject subject = new ThrottleSubject("kafka", "client", "flood-" + i, ClientIdentity.NONE);
            ledger.end(ledger.begin(subject, "topic", "publish_messages", "delay"));
        }
        assertTrue(ledger.events().size() <= 50, "kept: " + ledger.events().size());
        assertTrue(
                ledger.events().keySet().stream().noneMatch(k -> k.topic().equals("old-topic")),
                "an idle counter expires");
    }
}
