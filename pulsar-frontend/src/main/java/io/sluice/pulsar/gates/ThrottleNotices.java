package io.sluice.pulsar.gates;

import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.pulsar.codec.FrameCommand;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.relay.Outbound;

import java.util.concurrent.TimeUnit;

/**
 * The throttle notices of one connection, Sluice's protocol extension (docs/PROTOCOL-EXTENSION.md):
 * whether the client advertised {@code supports_throttle_producer_commands} in its CONNECT, the
 * ThrottleProducer commands written to it, and the receipt each quota notice waits for. A client
 * without the flag is never written one: a stock client drops its connection on an unknown command.
 *
 * <p>The {@link PublishGate} decides when to notify; this class tells it, through {@link Outcome},
 * whether the receipt came in time or not.
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

    /** A quota notice awaiting its receipt, and the timer that gives up on it. */
    private record Awaited(ProducerState producer, ScheduledFuture<?> deadline) {}

    private final Outbound out;
    private final EventExecutor loop;
    private final long receiptWindowNanos;
    private final Outcome outcome;
    private final LongObjectMap<Awaited> awaited = new LongObjectHashMap<>();
    private boolean clientSupportsNotices;
    private long nextRequestId;

    ThrottleNotices(Outbound out, EventExecutor loop, long receiptWindowNanos, Outcome outcome) {
        this.out = out;
        this.loop = loop;
        this.receiptWindowNanos = receiptWindowNanos;
        this.outcome = outcome;
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
        ScheduledFuture<?> deadline = loop.schedule(() -> expired(requestId), receiptWindowNanos, TimeUnit.NANOSECONDS);
        awaited.put(requestId, new Awaited(producer, deadline));
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
            notice.deadline().cancel(false);
            outcome.noticeAnswered(notice.producer(), requestId);
        }
    }

    /** The producer is gone: its notice {@code requestId} no longer awaits a receipt. */
    void forget(long requestId) {
        Awaited notice = awaited.remove(requestId);
        if (notice != null) {
            notice.deadline().cancel(false);
        }
    }

    private long write(ProducerState producer, ThrottlingReason reason, long pauseMillis) {
        long requestId = nextRequestId++;
        out.toClient(FrameWriter.throttleProducer(out.alloc(), requestId, producer.producerId, reason, pauseMillis));
        return requestId;
    }

    private void expired(long requestId) {
        Awaited notice = awaited.remove(requestId);
        if (notice != null) {
            outcome.noticeMissed(notice.producer(), requestId);
        }
    }
}
