package io.sluice.cluster;

import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaEngine;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Three Sluices behind one balancer share {@code ips "*"} 10 new connections a second through a
 * store in memory, on a fake clock: one address reconnecting in a loop through all three gets 10 a
 * second together once the shares converge, as any limit's buckets do.
 */
class ConnectionRateClusterTest {

    private static final long MILLI = 1_000_000L;
    private static final long SECOND = 1_000 * MILLI;
    private static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final ScopeRef ADDRESS = new ScopeRef(ScopeKind.IPS, "10.0.0.1/32");

    private final AtomicLong now = new AtomicLong(5_000 * SECOND);
    private final NanoClock clock = now::get;
    private final InMemoryClusterStore store = new InMemoryClusterStore(clock, INTERVAL);

    @Test
    void aReconnectLoopThroughThreeSluicesGetsTheRateTogether() {
        LimitsDocument limits = LimitsDocument.empty()
                .withLimit(
                        new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME),
                        Limit.connections(new EventRate(10.0, 1.0)));
        List<QuotaEngine> engines = new ArrayList<>();
        List<ClusterSync> syncs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            QuotaEngine engine = new QuotaEngine(limits, clock);
            engines.add(engine);
            syncs.add(new ClusterSync(
                    "test", "sluice-" + i, INTERVAL, engine, store, version -> {}, clock, Clock.systemUTC()));
        }
        QuotaDecision decision = new QuotaDecision();
        long admitted = 0;
        long step = 10 * MILLI;
        for (long t = 0; t < 30 * SECOND; t += step) {
            for (int i = 0; i < 3; i++) {
                if ((t - i * 330 * MILLI) % SECOND == 0) {
                    syncs.get(i).tick();
                }
                // Each Sluice is offered a connection every 10 ms: 300 a second in all.
                if (engines.get(i).connectionPath(ADDRESS).tryAcquire(now.get(), 1, 0, decision) && t >= 10 * SECOND) {
                    admitted++;
                }
            }
            now.addAndGet(step);
        }
        assertEquals(200, admitted, 20, "10/s for the three together over 20 s once converged");
    }
}
