package io.sluice.cluster;

import io.sluice.quota.NanoClock;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster store in memory, with the Redis store's rules: a report is live for three intervals
 * after it was written, and a member is seen as long as it reports. {@link #down} makes every
 * exchange fail, as an unreachable store does.
 */
final class InMemoryClusterStore implements ClusterStore {

    private final NanoClock clock;
    private final long liveNanos;
    private final Map<String, Map<String, Report>> demands = new HashMap<>();
    private final Map<String, Long> seen = new HashMap<>();
    long limitsVersion;
    boolean down;

    InMemoryClusterStore(NanoClock clock, Duration interval) {
        this.clock = clock;
        this.liveNanos = interval.toNanos() * ClusterSync.STALE_INTERVALS;
    }

    @Override
    public synchronized SyncReply exchange(SyncRequest request) throws IOException {
        if (down) {
            throw new IOException("store down");
        }
        long now = clock.nanoTime();
        seen.put(request.member(), now);
        seen.values().removeIf(at -> now - at > liveNanos);
        Map<String, List<MemberDemand>> reply = new HashMap<>();
        request.demands().forEach((id, demand) -> {
            Map<String, Report> reports = demands.computeIfAbsent(id, k -> new HashMap<>());
            reports.put(request.member(), new Report(demand, now));
            reports.values().removeIf(report -> now - report.at() > liveNanos);
            List<MemberDemand> live = new ArrayList<>();
            reports.forEach((member, report) -> live.add(new MemberDemand(member, report.demand())));
            reply.put(id, live);
        });
        List<MemberSeen> members = new ArrayList<>();
        seen.forEach((member, at) -> members.add(new MemberSeen(member, (now - at) / 1_000_000)));
        return new SyncReply(reply, members, limitsVersion);
    }

    @Override
    public void close() {}

    private record Report(Demand demand, long at) {}
}
