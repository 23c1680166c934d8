package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.FrameView;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dispatch gate's metering of FLOW permits against a fake clock. */
@ExtendWith(LeakCheck.class)
class DispatchGateTest {

    private static final String TOPIC = "persistent://public/default/t";
    private static final long CONSUMER = 3;

    private final GateHarness harness = new GateHarness();
    private final DispatchGate gate = harness.dispatchGate();

    @AfterEach
    void closeAll() {
        gate.close();
        harness.close();
    }

    private void consumer() {
        gate.consumers().requested(1, CONSUMER, TOPIC);
        gate.consumers().succeeded(1);
    }

    private static ByteBuf flow(int permits) {
        return FrameWriter.flow(Unpooled.buffer().alloc(), CONSUMER, permits);
    }

    /** Permits passed to the broker so far, one entry per FLOW, frames released. */
    private List<Integer> grantedPermits() {
        List<Integer> permits = new ArrayList<>();
        for (ByteBuf frame : harness.upstream) {
            permits.add(FrameReader.parse(FrameView.of(frame)).getFlow().getMessagePermits());
            frame.release();
        }
        harness.upstream.clear();
        return permits;
    }

    @Test
    void withoutADispatchLimitTheClientsFlowGoesOutUnchanged() {
        consumer();
        ByteBuf frame = flow(1000);
        GateHarness.lend(frame, gate::flow);
        assertSame(frame, harness.lentUpstream.get(0), "the very bytes, not a copy");
        assertEquals(List.of(1000), grantedPermits());
    }

    @Test
    void permitsArePassedOnInStepsNoFasterThanTheRate() {
        harness.limit(new ScopeRef(PulsarScopes.TOPIC, TOPIC), Limit.dispatch(new RateLimit(100.0, null, null, null)));
        consumer();
        GateHarness.lend(flow(1000), gate::flow);
        int atOnce = grantedPermits().stream().mapToInt(Integer::intValue).sum();
        assertTrue(atOnce >= 100 && atOnce <= 110, "the burst: " + atOnce);
        assertEquals("delay", harness.throttled().get(0).action());
        assertEquals("dispatch_messages", harness.throttled().get(0).reason());

        int granted = atOnce;
        for (int i = 0; i < 10; i++) {
            harness.advance(100);
            granted += grantedPermits().stream().mapToInt(Integer::intValue).sum();
        }
        assertTrue(granted >= atOnce + 95 && granted <= atOnce + 110, "one more second at 100/s: " + granted);
    }

    @ParameterizedTest
    @EnumSource(
            value = OnExceed.class,
            names = {"REJECT", "NOTIFY"})
    void rejectAndNotifyWithholdPermitsAsDelayDoesAndAreRecordedAsTheDelayTheyAre(OnExceed action) {
        harness.limit(
                new ScopeRef(PulsarScopes.TOPIC, TOPIC),
                Limit.dispatch(new RateLimit(100.0, null, null, null)).withOnExceed(action));
        consumer();
        GateHarness.lend(flow(1000), gate::flow);
        int atOnce = grantedPermits().stream().mapToInt(Integer::intValue).sum();
        assertTrue(atOnce >= 100 && atOnce <= 110, "the burst: " + atOnce);
        assertEquals(List.of(), harness.takeClientCommands(), "nothing is said to the consumer");
        assertEquals("delay", harness.throttled().get(0).action());

        harness.advance(100);
        int later = grantedPermits().stream().mapToInt(Integer::intValue).sum();
        assertTrue(later >= 5 && later <= 20, "100 ms at 100/s: " + later);
    }

    @Test
    void aClosedConsumerIsOwedNothingAndItsTimerStops() {
        harness.limit(new ScopeRef(PulsarScopes.TOPIC, TOPIC), Limit.dispatch(new RateLimit(10.0, null, null, null)));
        consumer();
        GateHarness.lend(flow(1000), gate::flow);
        grantedPermits();
        gate.consumers().closed(CONSUMER);
        assertTrue(harness.throttled().isEmpty());
        harness.advance(2_000);
        assertEquals(List.of(), grantedPermits());
    }

    @Test
    void permitsGrantedBeforeTheBrokerAnswersWaitAndAreThenMetered() {
        harness.limit(new ScopeRef(PulsarScopes.TOPIC, TOPIC), Limit.dispatch(new RateLimit(100.0, null, null, null)));
        gate.consumers().requested(1, CONSUMER, TOPIC);
        GateHarness.lend(flow(1000), gate::flow);
        assertEquals(List.of(), grantedPermits(), "nothing reaches the broker before the consumer exists");
        gate.consumers().succeeded(1);
        int atOnce = grantedPermits().stream().mapToInt(Integer::intValue).sum();
        assertTrue(atOnce >= 100 && atOnce <= 110, "the burst: " + atOnce);
    }

    @Test
    void permitsForAConsumerSluiceDoesNotTrackAreDropped() {
        GateHarness.lend(flow(1000), gate::flow);
        gate.consumers().requested(1, CONSUMER, TOPIC);
        GateHarness.lend(flow(1000), gate::flow);
        gate.consumers().failed(1);
        gate.consumers().requested(2, CONSUMER, TOPIC);
        gate.consumers().succeeded(2);
        assertEquals(List.of(), grantedPermits(), "neither the unknown consumer's nor the refused one's");
    }
}
