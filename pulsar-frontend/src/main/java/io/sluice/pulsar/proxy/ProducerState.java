package io.sluice.pulsar.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.quota.QuotaPath;
import io.sluice.status.Throttle;
import io.sluice.status.TopicMeter;

import java.util.ArrayDeque;

/**
 * One producer of a client connection, as the proxy sees it: its topic, its quota path, the
 * sends it holds for it and where it stands with throttle notices. Confined to the connection's
 * event loop.
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

    /** Where a producer of a client that takes throttle notices stands in a {@code notify} throttle. */
    enum NoticeState {
        /** Not notified: its sends pass the quota check. */
        NONE,
        /** Told to pause; its receipt is due. Sends that were in flight meanwhile are forwarded and charged. */
        AWAITING_RECEIPT,
        /** The client confirmed the pause: it sends nothing more for this producer until the pause is over. */
        RELYING,
        /**
         * The receipt did not come in time, or the client sent during the pause it confirmed:
         * {@code notify} acts as {@code delay} for this producer from now on.
         */
        MISSED
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
    /** For a rejecting or notified producer: when its throttle is over unless it is refused again. */
    long throttleEndsAtNanos;
    NoticeState notice = NoticeState.NONE;
    /** The ThrottleProducer request awaiting its receipt, while {@link NoticeState#AWAITING_RECEIPT}. */
    long noticeRequestId;
    /** When the pause the client was told about is over. */
    long pauseEndsAtNanos;

    ProducerState(long producerId, String topic) {
        this.producerId = producerId;
        this.topic = topic;
    }

    long unanswered() {
        return forwarded - answered;
    }

    /** Whether the client confirmed a pause that is not over yet. */
    boolean pausing(long nowNanos) {
        return notice == NoticeState.RELYING && nowNanos - pauseEndsAtNanos < 0;
    }
}
