package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.admission.AdmissionController;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.LatencyWindow;
import io.sluice.admission.UpstreamConnectFailures;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeRef;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.ThrottledClient;
import io.sluice.status.TopicActivity;
import io.sluice.testing.ManualEventLoop;
import org.apache.kafka.common.protocol.ApiMessage;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The gates' world without a broker or sockets: a manual event loop whose clock the quota engine
 * shares, and a {@link KafkaOutbound} that keeps what the gates forward, answer and send, and
 * whether they paused the client's requests. Frames kept here are released by {@link #close}.
 */
final class GateHarness implements KafkaOutbound, AutoCloseable {

    static final String CLIENT_ADDRESS = "10.0.0.1:5000";

    /** A request the gates forwarded, with what its header said and the exchange its response goes through. */
    record Forwarded(ByteBuf frame, short apiKey, short version, int correlationId, Exchange exchange) {
    }

    /** An answer of Sluice's own, for the request with {@code correlationId}. */
    record Answer(ByteBuf frame, int correlationId) {
    }

    final ManualEventLoop loop = new ManualEventLoop();
    final QuotaEngine quotas = new QuotaEngine(LimitsDocument.empty(), loop::clockNanos);
    final ThrottleLedger ledger = new ThrottleLedger(Clock.systemUTC());
    final TopicActivity activity = new TopicActivity(Duration.ofMinutes(1));
    final LatencyWindow latency = new LatencyWindow();
    final ProxyServices services = new ProxyServices(quotas, activity, ledger, new ProxyStats(),
            new AdmissionController(AdmissionSettings.DEFAULTS, Map.of()), latency, new UpstreamConnectFailures());
    final TopicIds topicIds = new TopicIds(100);
    final List<Forwarded> forwarded = new ArrayList<>();
    final List<Answer> answers = new ArrayList<>();
    final List<ByteBuf> unanswered = new ArrayList<>();
    final List<ByteBuf> client = new ArrayList<>();
    boolean paused;
    int pauses;
    int flushes;

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final List<ByteBuf> toRelease = new ArrayList<>();

    KafkaGates gates() {
        return new KafkaGates(this, loop, services, topicIds, CLIENT_ADDRESS);
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

    /** The oldest forwarded request not yet answered, removed. */
    Forwarded takeForwarded() {
        return forwarded.remove(0);
    }

    /**
     * Answers {@code request} with the broker's {@code response} through its exchange, releasing the
     * request; returns what the client gets, which the harness releases at {@link #close}.
     */
    ByteBuf respond(Forwarded request, ApiMessage response) {
        request.frame().release();
        ByteBuf out = request.exchange().complete(KafkaFrames.response(response, request.version(), request.correlationId()));
        toRelease.add(out);
        return out;
    }

    /** Heap bytes of the harness's allocator not released yet. */
    long unreleasedBytes() {
        return alloc.metric().usedHeapMemory();
    }

    List<ThrottledClient> throttled() {
        return ledger.throttled();
    }

    @Override
    public void forward(ByteBuf frame, RequestHeader header, Exchange exchange) {
        forwarded.add(new Forwarded(frame, header.apiKey(), header.apiVersion(), header.correlationId(), exchange));
    }

    @Override
    public void answer(RequestHeader header, ByteBuf answer) {
        answers.add(new Answer(answer, header.correlationId()));
    }

    @Override
    public void pauseRequests() {
        paused = true;
        pauses++;
    }

    @Override
    public void resumeRequests() {
        paused = false;
    }

    @Override
    public void toUpstream(ByteBuf frame) {
        unanswered.add(frame);
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

    @Override
    public void close() {
        forwarded.forEach(f -> {
            f.frame().release();
            f.exchange().abandon();
        });
        answers.forEach(a -> a.frame().release());
        unanswered.forEach(ByteBuf::release);
        client.forEach(ByteBuf::release);
        toRelease.forEach(ByteBuf::release);
        forwarded.clear();
        answers.clear();
        unanswered.clear();
        client.clear();
        toRelease.clear();
    }
}
