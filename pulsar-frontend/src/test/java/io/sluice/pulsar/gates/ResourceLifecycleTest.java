package io.sluice.pulsar.gates;

import io.sluice.limits.Direction;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.TopicQuota;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.ThrottledClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a gate hears as a connection's producers come and go, and what each is charged to and named by. */
class ResourceLifecycleTest {

    private static final String TOPIC = "persistent://public/default/t";

    private record Made(long id, TopicQuota quota, CurrentThrottle throttle) {}

    private final GateHarness harness = new GateHarness();
    private final List<Made> made = new ArrayList<>();
    /** What the gate heard, in order: "made 7", "created 7", "forgotten 7", "gone 7". */
    private final List<String> heard = new ArrayList<>();

    private final ResourceLifecycle<Made> producers = new ResourceLifecycle<>(
            harness.services, "10.0.0.1:5000", Direction.PUBLISH, PulsarScopes.PRODUCER_ID, new Recorder());

    @AfterEach
    void closeAll() {
        harness.close();
    }

    @Test
    void aProducerTurnsActiveChargedToTheRoleTheBrokerAcceptedAndNamedByItsIdAndAddress() {
        harness.limit(
                new ScopeRef(PulsarScopes.ROLE, "alice"),
                Limit.publish(new RateLimit(1.0, null, null, null)).withOnExceed(OnExceed.DELAY));
        producers.authenticated("alice");
        producers.requested(1, 7, TOPIC);
        assertTrue(producers.isPending(7));
        assertTrue(producers.isRequestPending(1));
        assertEquals(List.of(), heard, "nothing before the broker's answer");

        producers.succeeded(1);

        assertEquals(List.of("made 7", "created 7"), heard, "made, then told once it is the registry's");
        Made producer = made.get(0);
        assertEquals(TOPIC, producer.quota().topic());
        assertFalse(producer.quota().path(0).isUnlimited(), "the role's limit applies");
        producer.throttle()
                .begin("role", "publish_messages", "delay", producer.quota().meter());
        ThrottledClient throttled = harness.throttled().get(0);
        assertEquals("10.0.0.1:5000", throttled.connection());
        assertEquals("alice", throttled.identity().get("role"));
        assertEquals(7L, throttled.identity().get("producerId"));
        assertFalse(producers.isPending(7));
    }

    @Test
    void aRefusedRequestIsForgottenAClosedProducerGoneAndEveryActiveOneGoesWithTheConnection() {
        producers.requested(1, 7, TOPIC);
        producers.failed(1);
        producers.failed(99);
        assertEquals(List.of("forgotten 7"), heard, "a request of another kind is not the gate's");

        heard.clear();
        producers.requested(2, 8, TOPIC);
        producers.succeeded(2);
        producers.closed(8);
        assertEquals(List.of("made 8", "created 8", "forgotten 8", "gone 8"), heard);

        heard.clear();
        producers.requested(3, 9, TOPIC);
        producers.succeeded(3);
        producers.closeAll();
        assertEquals(List.of("made 9", "created 9", "gone 9"), heard, "every active one goes with the connection");
    }

    private final class Recorder implements ResourceLifecycle.Gate<Made> {

        @Override
        public Made active(long id, TopicQuota quota, CurrentThrottle throttle) {
            Made state = new Made(id, quota, throttle);
            made.add(state);
            heard.add("made " + id);
            return state;
        }

        @Override
        public void created(Made state) {
            heard.add("created " + state.id());
        }

        @Override
        public void forgotten(long id) {
            heard.add("forgotten " + id);
        }

        @Override
        public void gone(Made state) {
            heard.add("gone " + state.id());
        }
    }
}
