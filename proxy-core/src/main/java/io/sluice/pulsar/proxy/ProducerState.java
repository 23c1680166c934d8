package io.sluice.pulsar.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.quota.QuotaPath;
import io.sluice.status.Throttle;
import io.sluice.status.TopicMeter;

import java.util.ArrayDeque;

/**
 * One producer of a client connection, as the proxy sees it: its topic, its quota path, and the
 * sends it holds for it. Confined to the connection's event loop.
 *
 * <p>Buffer ownership: every frame in {@link #held} is owned by this producer until
 * {@link PublishGate} forwards it (ownership passes to the broker channel) or drops it when the
 * producer or connection closes (released there).
 */
final class ProducerState {

    /** A send held back by a delay: the original frame and what it costs. */
    record HeldSend(ByteBuf frame, int messages, long bytes, long heldAtNanos) {
    }

    /** A rejection that must reach the client after the receipts of {@code afterForwarded} sends. */
    record PendingRejection(long sequenceId, String message, long afterForwarded) {
    }

    final long producerId;
    final String topic;

    QuotaPath path;
    TopicMeter meter;
    final ArrayDeque<HeldSend> held = new ArrayDeque<>();
    long heldBytes;
    ScheduledFuture<?> timer;
    /** Sends forwarded to the broker, and broker answers (receipts or errors) seen, since creation. */
    long forwarded;
    long answered;
    /** When each unanswered forwarded send left, for the upstream latency signal. */
    final SendTimes sendTimes = new SendTimes();
    final ArrayDeque<PendingRejection> rejections = new ArrayDeque<>();
    Throttle throttle;
    /** For a rejecting producer: when its throttle is over unless it is refused again. */
    long throttleEndsAtNanos;

    ProducerState(long producerId, String topic) {
        this.producerId = producerId;
        this.topic = topic;
    }

    long unanswered() {
        return forwarded - answered;
    }
}
