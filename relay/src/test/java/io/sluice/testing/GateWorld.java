package io.sluice.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.resolver.DefaultAddressResolverGroup;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.Outbound;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.ThrottledClient;
import io.sluice.status.TopicActivity;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A gate's world without a broker or sockets, for a front end's gate tests: a manual event loop
 * whose clock the quota engine shares, the engine's services, and an {@link Outbound} that keeps
 * what the gate sends each way instead of writing it. Frames kept are released by
 * {@link #releaseAll}.
 */
public class GateWorld implements Outbound {

    public final ManualEventLoop loop = new ManualEventLoop();
    public final QuotaEngine quotas = new QuotaEngine(LimitsDocument.empty(), loop::clockNanos);
    public final ThrottleLedger ledger = new ThrottleLedger(Clock.systemUTC());
    public final TopicActivity activity = new TopicActivity(Duration.ofMinutes(1));
    public final LatencyWindow latency = new LatencyWindow();
    public final ProxyServices services;
    /** Frames sent to the broker, oldest first. */
    public final List<ByteBuf> upstream = new ArrayList<>();
    /** Frames sent to the client, oldest first. */
    public final List<ByteBuf> client = new ArrayList<>();
    /** How often the gate flushed. */
    public int flushes;

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);

    /** A world whose stats are labelled with {@code protocol} ("pulsar" or "kafka"). */
    public GateWorld(String protocol) {
        services = new ProxyServices(
                quotas,
                activity,
                ledger,
                new ProxyStats(protocol),
                new AdmissionController(AdmissionSettings.DEFAULTS, Map.of()),
                latency,
                new UpstreamConnectFailures(),
                new IncompleteFrames(1L << 30, IncompleteFrames.DEFAULT_FRAME_TIMEOUT),
                DefaultAddressResolverGroup.INSTANCE);
    }

    public void limit(ScopeRef scope, Limit limit) {
        quotas.update(quotas.limits().withLimit(scope, limit));
    }

    public void limits(LimitsDocument limits) {
        quotas.update(limits);
    }

    /** Moves time on and runs the timers that fall due. */
    public void advance(long millis) {
        loop.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        loop.runTasks();
    }

    public List<ThrottledClient> throttled() {
        return ledger.throttled();
    }

    @Override
    public void toUpstream(ByteBuf frame) {
        upstream.add(frame);
    }

    @Override
    public void toClient(ByteBuf frame) {
        client.add(frame);
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    /** Heap bytes of {@link #alloc()}'s buffers not released yet. */
    public long unreleasedBytes() {
        return alloc.metric().usedHeapMemory();
    }

    /** Releases every frame kept and forgets it. */
    public void releaseAll() {
        upstream.forEach(ByteBuf::release);
        client.forEach(ByteBuf::release);
        upstream.clear();
        client.clear();
    }
}
