package io.sluice.toy.line;

import io.netty.buffer.ByteBuf;
import io.sluice.limits.Direction;
import io.sluice.limits.OnExceed;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.FrameView;
import io.sluice.relay.HeldFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.TopicQuota;
import io.sluice.relay.WakeUps;
import io.sluice.relay.connection.ConnectionProtocol;
import io.sluice.relay.connection.ProxiedConnection;
import io.sluice.status.ClientIdentity;
import io.sluice.status.CurrentThrottle;
import io.sluice.status.ThrottleSubject;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The line protocol's side of one connection: {@code PUB <id> <topic> <payload>} lines are charged
 * to their topic's publish limit, every other line and every answer ({@code OK <id>}) passes. Over
 * its limit a line waits in its topic's hold, the client unread meanwhile, or ({@code reject}) Sluice
 * answers {@code ERR <id> sluice: ...} and forwards nothing: this protocol's action policy. Lines
 * without an answer count against the connection limits, held bytes too.
 */
final class LineConnection implements ConnectionProtocol {

    /** Past this many topics on one connection Sluice refuses the line rather than keep more state. */
    static final int MAX_TOPICS = 64;

    private final ProxiedConnection relay;
    private final ProxyServices services;
    private final LineConfig config;
    private final NanoClock clock;
    private final ConnectionHolds holds;
    private final Map<String, LineTopic> topics = new HashMap<>();
    private final QuotaDecision decision = new QuotaDecision();
    /** The topic whose line is held, the client unread meanwhile; {@code null} when none. */
    private LineTopic holding;

    LineConnection(ProxiedConnection relay, ProxyServices services, LineConfig config) {
        this.relay = relay;
        this.services = services;
        this.config = config;
        this.clock = services.quotas().clock();
        ConnectionBudget budget = new ConnectionBudget(
                () -> services.quotas().limits().connection(),
                ConnectionBudget.Pause.of(relay::pauseClient, relay::resumeClient, ReadGate.CONNECTION_LIMIT));
        this.holds =
                new ConnectionHolds(new WakeUps(relay.eventLoop(), clock), budget, services.throttles(), relay::flush);
    }

    @Override
    public void opened() {
        relay.handshakeCompleted(); // the protocol has no handshake
        relay.connect(config.upstream().host(), config.upstream().port(), failure -> relay.close());
    }

    @Override
    public void fromClient(FrameView frame) {
        String[] words = frame.buffer()
                .toString(frame.index(), frame.length() - 1, StandardCharsets.UTF_8)
                .split(" ", 4);
        if (words.length < 4 || !words[0].equals("PUB")) {
            forward(frame);
            return;
        }
        LineTopic topic = topic(words[2]);
        if (topic == null) {
            answer(words[1], "more than " + MAX_TOPICS + " topics on one connection, or not a topic name");
            return;
        }
        long now = clock.nanoTime();
        if (topic.tryAcquire(now, frame.length())) {
            topic.quota.meter().published(1, frame.length());
            forward(frame);
        } else if (decision.onExceed() == OnExceed.REJECT) {
            answer(
                    words[1],
                    "topic " + topic.quota.topic() + " is over its publish limit, retry in "
                            + decision.retryAfterMillis() + " ms");
        } else {
            hold(frame, topic, now);
        }
    }

    private LineTopic topic(String name) {
        LineTopic topic = topics.get(name);
        if (topic == null && topics.size() < MAX_TOPICS && LineScopes.isTopic(name)) {
            TopicQuota quota = new TopicQuota(
                    services.quotas(),
                    services.topics(),
                    Direction.PUBLISH,
                    LineScopes.PROTOCOL,
                    name,
                    LineScopes.chain(name));
            CurrentThrottle throttle = new CurrentThrottle(
                    services.throttles(),
                    new ThrottleSubject(
                            LineScopes.PROTOCOL, String.valueOf(relay.clientAddress()), name, ClientIdentity.NONE));
            topic = new LineTopic(quota, throttle, holds, decision, this);
            topics.put(name, topic);
        }
        return topic;
    }

    private void forward(FrameView frame) {
        awaitAnswer();
        relay.toUpstream(frame);
    }

    private void answer(String id, String why) {
        relay.toClient(relay.alloc()
                .buffer()
                .writeBytes(("ERR " + id + " sluice: " + why + "\n").getBytes(StandardCharsets.UTF_8)));
    }

    /** Holds the lent line in its topic's hold, as a slice of its own, and reads no more lines meanwhile. */
    private void hold(FrameView frame, LineTopic topic, long now) {
        awaitAnswer();
        topic.throttled();
        topic.hold.add(frame.retainedSlice(), 1, frame.length(), HeldFrames.NO_SEQUENCE, now);
        holding = topic;
        relay.pauseClient(ReadGate.QUOTA);
        topic.hold.lookAgainIn(decision.waitNanos());
    }

    /** A held line, admitted, goes on; takes ownership of {@code line}. */
    void released(ByteBuf line) {
        relay.toUpstream(line);
    }

    /** The held line went: the client's next lines are read. */
    void resumed() {
        holding = null;
        relay.resumeClient(ReadGate.QUOTA);
    }

    private void awaitAnswer() {
        holds.budget().sendPending();
        holds.budget().check();
    }

    @Override
    public void fromUpstream(FrameView answer) {
        holds.budget().sendsDone(1);
        holds.budget().check();
        relay.toClient(answer);
    }

    @Override
    public boolean isIdle() {
        return holding == null && holds.budget().pendingSends() <= 0;
    }

    @Override
    public void closed() {
        for (LineTopic topic : topics.values()) {
            topic.hold.close();
            topic.throttle.end();
        }
        holds.timers().close();
    }
}
