package io.sluice.pulsar.gates;

import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;
import io.sluice.pulsar.codec.FrameCommand;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.quota.NanoClock;
import io.sluice.relay.Outbound;
import io.sluice.relay.WakeUp;
import io.sluice.relay.WakeUps;

import java.util.ArrayDeque;

/**
 * The throttle notices of one connection, Sluice's protocol extension (docs/PROTOCOL-EXTENSION.md):
 * whether the client advertised {@code supports_throttle_producer_commands} in its CONNECT, the
 * ThrottleProducer commands written to it, and the receipt each quota notice waits for. A client
 * without the flag is never written one: a stock client drops its connection on an unknown command.
 *
 * <p>The {@link PublishGate} decides when to notify; this class tells it, through {@link Outcome},
 * whether the receipt came in time or not. Every notice waits the same receipt window, so the
 * notices fall due in the order they were written: one timer of the connection's one timer
 * ({@link WakeUps}) wakes at the oldest's deadline, gives up on every notice due by then that has
 * no receipt, and waits for the next.
 *
 * <p>Confined to the connection's event loop.
 */
public final class ThrottleNotices {

    private static final int RECEIPT = BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT_VALUE;

    /** What became of a quota notice. */
    interface Outcome {

        /** The client confirmed notice {@code requestId} for {@code producer} in time. */
        void noticeAnswered(ProducerState producer, long requestId);

        /** No receipt for notice {@code requestId} within the receipt window. */
        void noticeMissed(ProducerState producer, long requestId);
    }

    /** A quota notice awaiting its receipt until {@code deadlineNanos}, on the connection's clock. */
    private record Awaited(long requestId, ProducerState producer, long deadlineNanos) {}

    private final Outbound out;
    private final NanoClock clock;
    private final long receiptWindowNanos;
    private final Outcome outcome;
    /** The notices awaiting their receipts, by request id. */
    private final LongObjectMap<Awaited> awaited = new LongObjectHashMap<>();
    /**
     * The notices written, oldest (the first due) first, until their deadline or, once answered or
     * forgotten, until no older one is left; an entry not in {@link #awaited} is no longer awaited.
     */
    private final ArrayDeque<Awaited> deadlines = new ArrayDeque<>();

    private final WakeUp timer;
    private boolean clientSupportsNotices;
    private long nextRequestId;

    /**
     * @param timers             the connection's one timer, on which the receipts' deadlines wait
     * @param clock              the connection's clock, on the engine's time scale
     * @param receiptWindowNanos how long a client has to confirm a quota notice
     */
    ThrottleNotices(Outbound out, WakeUps timers, NanoClock clock, long receiptWindowNanos, Outcome outcome) {
        this.out = out;
        this.clock = clock;
        this.receiptWindowNanos = receiptWindowNanos;
        this.outcome = outcome;
        this.timer = timers.timer(receiptWindowNanos, this::expireDue);
    }

    /** Records what the client's CONNECT said about the extension. */
    public void clientSupportsNotices(boolean supports) {
        clientSupportsNotices = supports;
    }

    boolean clientSupportsNotices() {
        return clientSupportsNotices;
    }

    /**
     * Tells the client that {@code producer} is over a quota and should pause for
     * {@code pauseMillis}; its receipt is due within the receipt window.
     *
     * @return the notice's request id
     */
    long quotaExceeded(ProducerState producer, ThrottlingReason reason, long pauseMillis) {
        long requestId = write(producer, reason, pauseMillis);
        Awaited notice = new Awaited(requestId, producer, clock.nanoTime() + receiptWindowNanos);
        awaited.put(requestId, notice);
        deadlines.add(notice);
        // A timer already waiting waits for an older notice, which is due first.
        timer.schedule(receiptWindowNanos);
        return requestId;
    }

    /**
     * Tells the client that the connection is over a connection limit and will not be read for a
     * while: every producer gets a notice with pause 0, as information. No receipt is awaited,
     * since the proxy could not read it before reading resumes anyway.
     */
    void connectionLimitExceeded(ThrottlingReason reason, Iterable<ProducerState> producers) {
        if (!clientSupportsNotices) {
            return;
        }
        for (ProducerState producer : producers) {
            write(producer, reason, 0);
        }
    }

    /** A ThrottleProducerReceipt from the client, as read; Sluice consumes it (the broker does not know the command). */
    public void receipt(FrameCommand command) {
        long requestId = FrameReader.readFirstId(command, RECEIPT);
        Awaited notice = awaited.remove(requestId);
        // Unknown ids are receipts of connection-limit notices, or of notices already given up on.
        if (notice != null) {
            dropAnswered();
            outcome.noticeAnswered(notice.producer(), requestId);
        }
    }

    /** The producer is gone: its notice {@code requestId} no longer awaits a receipt. */
    void forget(long requestId) {
        if (awaited.remove(requestId) != null) {
            dropAnswered();
        }
    }

    /** Drops the oldest deadlines of notices no longer awaited, so that what is kept is what may still fall due. */
    private void dropAnswered() {
        Awaited oldest;
        while ((oldest = deadlines.peek()) != null && !awaited.containsKey(oldest.requestId())) {
            deadlines.poll();
        }
    }

    private long write(ProducerState producer, ThrottlingReason reason, long pauseMillis) {
        long requestId = nextRequestId++;
        out.toClient(FrameWriter.throttleProducer(out.alloc(), requestId, producer.producerId, reason, pauseMillis));
        return requestId;
    }

    /** Timer task: every notice past its deadline without a receipt is missed; the timer then waits for the next. */
    private void expireDue() {
        long now = clock.nanoTime();
        Awaited oldest;
        while ((oldest = deadlines.peek()) != null && oldest.deadlineNanos() - now <= 0) {
            deadlines.poll();
            if (awaited.remove(oldest.requestId()) != null) {
                outcome.noticeMissed(oldest.producer(), oldest.requestId());
            }
        }
        dropAnswered();
        Awaited next = deadlines.peek();
        if (next != null) {
            timer.schedule(next.deadlineNanos() - now);
        }
    }
}
