package io.sluice.pulsar.gates;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.FrameView;
import io.sluice.relay.Outbound;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.ThrottledClient;
import io.sluice.status.TopicActivity;
import io.sluice.testing.ManualEventLoop;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A gate's world without a broker or sockets: a manual event loop whose clock the quota engine
 * shares, an {@link Outbound} that keeps what the gate sends each way, and a read pause that
 * records what the connection budget asks for. Frames kept here are released by {@link #close}.
 */
final class GateHarness implements Outbound, ConnectionBudget.Pause, AutoCloseable {

    static final Duration RECEIPT_WINDOW = Duration.ofMillis(100);

    final ManualEventLoop loop = new ManualEventLoop();
    final QuotaEngine quotas = new QuotaEngine(LimitsDocument.empty(), loop::clockNanos);
    final ThrottleLedger ledger = new ThrottleLedger(Clock.systemUTC());
    final TopicActivity activity = new TopicActivity(Duration.ofMinutes(1));
    final ProxyServices services = new ProxyServices(quotas, activity, ledger, new ProxyStats(),
            new AdmissionController(AdmissionSettings.DEFAULTS, Map.of()), new LatencyWindow(), new UpstreamConnectFailures());
    final List<ByteBuf> upstream = new ArrayList<>();
    final List<ByteBuf> client = new ArrayList<>();
    /** The buffers of lent frames forwarded upstream, to tell the very bytes from a copy; not retained. */
    final List<ByteBuf> lentUpstream = new ArrayList<>();
    final List<ConnectionBudget.Breach> pauses = new ArrayList<>();
    int resumes;
    int flushes;

    private final ByteBufAllocator alloc = new UnpooledByteBufAllocator(false);

    PublishGate publishGate() {
        return new PublishGate(this, loop, services, "10.0.0.1:5000", RECEIPT_WINDOW, this);
    }

    DispatchGate dispatchGate() {
        return new DispatchGate(this, loop, services, "10.0.0.1:5000");
    }

    void limit(ScopeRef scope, Limit limit) {
        quotas.update(quotas.limits().withLimit(scope, limit));
    }

    void limits(LimitsDocument limits) {
        quotas.update(limits);
    }

    /** Moves time on and runs the timers that fall due. */
    void advance(long millis) {
        loop.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        loop.runTasks();
    }

    /** The client-bound frames so far, parsed, and released. */
    List<BaseCommand> takeClientCommands() {
        List<BaseCommand> commands = new ArrayList<>();
        for (ByteBuf frame : client) {
            commands.add(FrameReader.parse(frame));
            frame.release();
        }
        client.clear();
        return commands;
    }

    /** The broker-bound frames so far, as the BaseCommand types and sequence ids of their SENDs, released. */
    List<Long> takeForwardedSequenceIds() {
        List<Long> ids = new ArrayList<>();
        for (ByteBuf frame : upstream) {
            BaseCommand command = FrameReader.parse(frame);
            ids.add(command.hasSend() ? command.getSend().getSequenceId() : -command.getType().getNumber());
            frame.release();
        }
        upstream.clear();
        return ids;
    }

    List<ThrottledClient> throttled() {
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
    public void toUpstream(FrameView frame) {
        lentUpstream.add(frame.buffer());
        upstream.add(frame.retainedSlice());
    }

    @Override
    public void toClient(FrameView frame) {
        client.add(frame.retainedSlice());
    }

    /** Lends {@code frame} to {@code gate} as the frame decoder would, then lets go of it as the decoder does. */
    static void lend(ByteBuf frame, Consumer<FrameView> gate) {
        try {
            gate.accept(new FrameView().lend(frame, frame.readerIndex(), frame.readableBytes()));
        } finally {
            frame.release();
        }
    }

    @Override
    public void flush() {
        flushes++;
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public void pause(ConnectionBudget.Breach breach) {
        pauses.add(breach);
    }

    @Override
    public void resume() {
        resumes++;
    }

    @Override
    public void close() {
        upstream.forEach(ByteBuf::release);
        client.forEach(ByteBuf::release);
        upstream.clear();
        client.clear();
    }
}
