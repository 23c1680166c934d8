package io.sluice.toy.line;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.limits.Direction;
import io.sluice.limits.OnExceed;
import io.sluice.quota.QuotaDecision;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.TopicQuota;
import io.sluice.relay.connection.ConnectionProtocol;
import io.sluice.relay.connection.ProxiedConnection;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The line protocol's side of one connection: {@code PUB <id> <topic> <payload>} lines are charged
 * to their topic's publish limit, every other line and every answer ({@code OK <id>}) passes. Over
 * its limit a line waits, the client unread meanwhile, or ({@code reject}) Sluice answers
 * {@code ERR <id> sluice: ...} and forwards nothing: this protocol's action policy.
 */
final class LineConnection implements ConnectionProtocol {

    /** Past this many topics on one connection Sluice refuses the line rather than keep more state. */
    static final int MAX_TOPICS = 64;

    private final ProxiedConnection relay;
    private final ProxyServices services;
    private final LineConfig config;
    private final Map<String, TopicQuota> topics = new HashMap<>();
    private final QuotaDecision decision = new QuotaDecision();
    private int awaitingAnswers;
    private ByteBuf held;
    private TopicQuota heldTopic;
    private ScheduledFuture<?> retry;

    LineConnection(ProxiedConnection relay, ProxyServices services, LineConfig config) {
        this.relay = relay;
        this.services = services;
        this.config = config;
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
        TopicQuota topic = topic(words[2]);
        if (topic == null) {
            answer(words[1], "more than " + MAX_TOPICS + " topics on one connection, or not a topic name");
            return;
        }
        long now = services.quotas().clock().nanoTime();
        if (topic.path(now).tryAcquire(now, 1, frame.length(), decision)) {
            topic.meter().published(1, frame.length());
            forward(frame);
        } else if (decision.onExceed() == OnExceed.REJECT) {
            answer(
                    words[1],
                    "topic " + topic.topic() + " is over its publish limit, retry in " + decision.retryAfterMillis()
                            + " ms");
        } else {
            hold(frame.retainedSlice(), topic, decision.waitNanos());
        }
    }

    private TopicQuota topic(String name) {
        TopicQuota topic = topics.get(name);
        if (topic == null && topics.size() < MAX_TOPICS && LineScopes.isTopic(name)) {
            topic = new TopicQuota(
                    services.quotas(),
                    services.topics(),
                    Direction.PUBLISH,
                    LineScopes.PROTOCOL,
                    name,
                    LineScopes.chain(name));
            topics.put(name, topic);
        }
        return topic;
    }

    private void forward(FrameView frame) {
        awaitingAnswers++;
        relay.toUpstream(frame);
    }

    private void answer(String id, String why) {
        relay.toClient(relay.alloc()
                .buffer()
                .writeBytes(("ERR " + id + " sluice: " + why + "\n").getBytes(StandardCharsets.UTF_8)));
    }

    /** Takes ownership of {@code line} until it is forwarded or the connection closes. */
    private void hold(ByteBuf line, TopicQuota topic, long waitNanos) {
        held = line;
        heldTopic = topic;
        relay.pauseClient(ReadGate.QUOTA);
        retry = relay.eventLoop().schedule(this::retryHeld, Math.max(waitNanos, 1_000_000), TimeUnit.NANOSECONDS);
    }

    private void retryHeld() {
        long now = services.quotas().clock().nanoTime();
        if (!heldTopic.path(now).tryAcquire(now, 1, held.readableBytes(), decision)) {
            retry = relay.eventLoop()
                    .schedule(this::retryHeld, Math.max(decision.waitNanos(), 1_000_000), TimeUnit.NANOSECONDS);
            return;
        }
        heldTopic.meter().published(1, held.readableBytes());
        ByteBuf line = held;
        held = null;
        awaitingAnswers++;
        relay.toUpstream(line);
        relay.flush();
        relay.resumeClient(ReadGate.QUOTA);
    }

    @Override
    public void fromUpstream(FrameView answer) {
        awaitingAnswers--;
        relay.toClient(answer);
    }

    @Override
    public boolean isIdle() {
        return held == null && awaitingAnswers <= 0;
    }

    @Override
    public void closed() {
        if (retry != null) {
            retry.cancel(false);
        }
        if (held != null) {
            held.release();
            held = null;
        }
    }
}
