package io.sluice.admin.metrics;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.status.TopicActivity;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TopicLabelsTest {

    private static final String NS = "persistent://t/n/";
    private static final Limit LIMIT = new Limit(new RateLimit(1.0, null, null), null, null);

    @Test
    void limitedTopicsAndTheirPartitionsAlwaysKeepTheirName() {
        LimitsDocument limits =
                LimitsDocument.empty().withLimit(new ScopeRef(ScopeKind.PULSAR_TOPIC, NS + "limited"), LIMIT);
        TopicActivity activity = new TopicActivity(Duration.ofMinutes(1));
        activity.meter("pulsar", NS + "busy").published(10, 10);

        TopicLabels labels = TopicLabels.select(limits, activity.meters(), 0);

        assertEquals(NS + "limited", labels.label("pulsar", NS + "limited"));
        assertEquals(NS + "limited-partition-4", labels.label("pulsar", NS + "limited-partition-4"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", NS + "busy"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", "not a topic name"));
    }

    @Test
    void theBusiestTopicsWithoutALimitGetTheirNameUpToTheMaximum() {
        LimitsDocument limits =
                LimitsDocument.empty().withLimit(new ScopeRef(ScopeKind.PULSAR_TOPIC, NS + "limited"), LIMIT);
        TopicActivity activity = new TopicActivity(Duration.ofMinutes(1));
        activity.meter("pulsar", NS + "limited").published(1000, 1);
        activity.meter("pulsar", NS + "first").published(300, 1);
        activity.meter("pulsar", NS + "second").published(200, 1);
        activity.meter("pulsar", NS + "third").published(100, 1);

        TopicLabels labels = TopicLabels.select(limits, activity.meters(), 2);

        assertEquals(NS + "first", labels.label("pulsar", NS + "first"));
        assertEquals(NS + "second", labels.label("pulsar", NS + "second"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", NS + "third"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", NS + "never-seen"));
    }
}
