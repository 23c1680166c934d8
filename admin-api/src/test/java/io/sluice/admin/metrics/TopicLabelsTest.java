package io.sluice.admin.metrics;

import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.status.TopicActivity;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TopicLabelsTest {

    private static final ScopeCatalogue SCOPES = ScopeCatalogue.of(PulsarScopes.DECLARED, KafkaScopes.DECLARED);
    private static final String NS = "persistent://t/n/";
    private static final Limit LIMIT = Limit.publish(new RateLimit(1.0, null, null, null));

    @Test
    void limitedTopicsAndTheirPartitionsAlwaysKeepTheirName() {
        LimitsDocument limits =
                LimitsDocument.empty().withLimit(new ScopeRef(PulsarScopes.TOPIC, NS + "limited"), LIMIT);
        TopicActivity activity = new TopicActivity(Duration.ofMinutes(1));
        activity.meter("pulsar", NS + "busy").published(10, 10);

        TopicLabels labels = TopicLabels.select(SCOPES, limits, activity.meters(), 0);

        assertEquals(NS + "limited", labels.label("pulsar", NS + "limited"));
        assertEquals(NS + "limited-partition-4", labels.label("pulsar", NS + "limited-partition-4"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", NS + "busy"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", "not a topic name"));
    }

    @Test
    void eachProtocolSaysWhichScopesAreATopicsOwn() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(new ScopeRef(KafkaScopes.TOPIC, "orders"), LIMIT)
                .withLimit(new ScopeRef(KafkaScopes.PREFIX, "team-"), LIMIT);

        TopicLabels labels = TopicLabels.select(SCOPES, limits, new TopicActivity(Duration.ofMinutes(1)).meters(), 0);

        assertEquals("orders", labels.label("kafka", "orders"));
        assertEquals(
                TopicLabels.OTHER, labels.label("pulsar", "orders"), "a Kafka topic's limit is not a Pulsar one's");
        assertEquals(TopicLabels.OTHER, labels.label("kafka", "orders-partition-1"), "Kafka has no partitioned topics");
        assertEquals(TopicLabels.OTHER, labels.label("kafka", "team-a"), "a prefix is not the topic's own");
        assertEquals(TopicLabels.OTHER, labels.label("mqtt", "orders"), "a protocol the catalogue lacks");
    }

    @Test
    void theBusiestTopicsWithoutALimitGetTheirNameUpToTheMaximum() {
        LimitsDocument limits =
                LimitsDocument.empty().withLimit(new ScopeRef(PulsarScopes.TOPIC, NS + "limited"), LIMIT);
        TopicActivity activity = new TopicActivity(Duration.ofMinutes(1));
        activity.meter("pulsar", NS + "limited").published(1000, 1);
        activity.meter("pulsar", NS + "first").published(300, 1);
        activity.meter("pulsar", NS + "second").published(200, 1);
        activity.meter("pulsar", NS + "third").published(100, 1);

        TopicLabels labels = TopicLabels.select(SCOPES, limits, activity.meters(), 2);

        assertEquals(NS + "first", labels.label("pulsar", NS + "first"));
        assertEquals(NS + "second", labels.label("pulsar", NS + "second"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", NS + "third"));
        assertEquals(TopicLabels.OTHER, labels.label("pulsar", NS + "never-seen"));
    }
}
