package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.sluice.kafka.codec.GroupRequests;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.connection.KafkaSettings;
import io.sluice.kafka.routing.TopicIdLookup;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.relay.FrameView;
import io.sluice.testing.GateWorld;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * The Kafka gates in a world without a broker or sockets ({@link GateWorld}): the connection's side
 * keeps what they forward, answer and send, and whether they stopped the client's requests. Frames
 * kept here, and the gates, are released by {@link #close}.
 */
final class GateHarness extends GateWorld implements KafkaOutbound, AutoCloseable {

    static final String CLIENT_ADDRESS = "10.0.0.1:5000";
    static final String CLIENT_ID = "app";

    /**
     * A request the gates forwarded, with what its header said and the exchange its response goes
     * through; {@code lentFrom} is the buffer of a frame forwarded as it was lent (the harness keeps a
     * slice of it), null for a frame of the gate's own.
     */
    record Forwarded(
            ByteBuf frame, ByteBuf lentFrom, short apiKey, short version, int correlationId, Exchange exchange) {}

    /** An answer of Sluice's own, for the request with {@code correlationId}. */
    record Answer(ByteBuf frame, int correlationId) {}

    final TopicIds topicIds = new TopicIds(100);
    final List<Forwarded> forwarded = new ArrayList<>();
    final List<Answer> answers = new ArrayList<>();
    /**
     * Each verdict carried out, oldest first, as {@code FORWARD whole}, {@code FORWARD cut} (either
     * with {@code unanswered} for {@code acks=0}), {@code ANSWER} or {@code HOLD}.
     */
    final List<String> verdicts = new ArrayList<>();
    /** What the cluster answers Sluice's own lookups of topic ids with; none by default. */
    final Map<Uuid, String> clusterTopicIds = new HashMap<>();
    /** The lookups Sluice made, each the ids it asked for. */
    final List<Collection<Uuid>> lookups = new ArrayList<>();

    final TopicIdLookup lookup;
    final KafkaGates gates;
    boolean paused;

    private final List<ByteBuf> toRelease = new ArrayList<>();

    /** Gates whose lookups of topic ids run at once, and answer on the harness's loop. */
    GateHarness() {
        this(ImmediateEventExecutor.INSTANCE);
    }

    /** Gates whose lookups of topic ids run on {@code lookupRunner}. */
    GateHarness(ExecutorService lookupRunner) {
        super("kafka");
        lookup = new TopicIdLookup(
                topicIds,
                ids -> {
                    lookups.add(List.copyOf(ids));
                    return clusterTopicIds;
                },
                lookupRunner);
        gates = new KafkaGates(
                this, loop, services, lookup, KafkaSettings.DEFAULT_MAX_TOPICS_PER_CONNECTION, CLIENT_ADDRESS, null);
    }

    /** A limit of {@code perSecond} records in one direction (produce when {@code produce}), with {@code onExceed}. */
    static Limit records(boolean produce, double perSecond, OnExceed onExceed) {
        RateLimit rate = new RateLimit(perSecond, null, null, null);
        return produce
                ? Limit.publish(rate).withOnExceed(onExceed)
                : Limit.dispatch(rate).withOnExceed(onExceed);
    }

    /**
     * Lends {@code frame} to the gate its API goes to, as the connection does with what its decoder
     * lends, then releases it: takes ownership.
     */
    void request(ByteBuf frame) {
        FrameView lent = KafkaFrames.view(frame);
        try {
            RequestHeader header = new RequestHeader().read(lent);
            if (header.apiKey() == ApiKeys.PRODUCE.id) {
                act(gates.produce().request(lent, header), lent, header);
            } else if (GroupRequests.isGroupRequest(header.apiKey())) {
                act(gates.groups().request(lent, header), lent, header);
            } else if (MutationGate.handles(header.apiKey())) {
                act(gates.mutations().request(lent, header), lent, header);
            } else if (header.apiKey() == ApiKeys.SHARE_FETCH.id) {
                act(gates.shareFetch().request(lent, header), lent, header);
            } else {
                act(gates.fetch().request(lent, header), lent, header);
            }
        } finally {
            frame.release();
        }
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
        ByteBuf out = complete(request, KafkaFrames.response(response, request.version(), request.correlationId()));
        toRelease.add(out);
        return out;
    }

    /**
     * The broker's {@code response} frame to {@code request} through its exchange, as the connection
     * passes it: returns what the client gets, {@code response} itself or the frame the gate put in
     * its place ({@code response} then released). Takes ownership of {@code response}; the caller
     * owns the result.
     */
    ByteBuf complete(Forwarded request, ByteBuf response) {
        return KafkaFrames.treated(response, request.apiKey(), request.version(), request.exchange()::complete);
    }

    /**
     * Carries out {@code verdict} as the connection does, into the harness's lists: a forwarded
     * request awaiting its response into {@link #forwarded}, one with {@code acks=0} into
     * {@link #upstream}, Sluice's answers into {@link #answers}.
     */
    @Override
    public void act(GateVerdict verdict, FrameView lent, RequestHeader header) {
        ByteBuf own = verdict.takeFrame();
        ByteBuf answer = verdict.takeAnswer();
        verdicts.add(
                verdict.kind() != GateVerdict.Kind.FORWARD
                        ? verdict.kind().name()
                        : "FORWARD " + (own == null ? "whole" : "cut")
                                + (verdict.awaitsResponse() ? "" : " unanswered"));
        switch (verdict.kind()) {
            case FORWARD -> {
                if (!verdict.awaitsResponse()) {
                    if (own == null) {
                        toUpstream(lent);
                    } else {
                        toUpstream(own);
                    }
                } else if (own == null) {
                    forward(lent, header, verdict.exchange());
                } else {
                    forward(own, header, verdict.exchange());
                }
            }
            case ANSWER -> answers.add(new Answer(answer, header.correlationId()));
            case HOLD -> {
                // Nothing goes now.
            }
        }
    }

    private void forward(FrameView frame, RequestHeader header, Exchange exchange) {
        forwarded.add(new Forwarded(
                frame.retainedSlice(),
                frame.buffer(),
                header.apiKey(),
                header.apiVersion(),
                header.correlationId(),
                exchange));
    }

    private void forward(ByteBuf frame, RequestHeader header, Exchange exchange) {
        forwarded.add(
                new Forwarded(frame, null, header.apiKey(), header.apiVersion(), header.correlationId(), exchange));
    }

    @Override
    public void pauseRequests() {
        paused = true;
    }

    @Override
    public void resumeRequests() {
        paused = false;
    }

    @Override
    public void close() {
        gates.close();
        forwarded.forEach(f -> {
            f.frame().release();
            f.exchange().abandon();
        });
        answers.forEach(a -> a.frame().release());
        toRelease.forEach(ByteBuf::release);
        forwarded.clear();
        answers.clear();
        toRelease.clear();
        releaseAll();
    }
}
