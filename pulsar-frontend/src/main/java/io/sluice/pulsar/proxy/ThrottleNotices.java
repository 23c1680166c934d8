package io.sluice.pulsar.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;

import java.util.concurrent.TimeUnit;

/**
 * The throttle notices of one connection, Sluice's protocol extension (docs/PROTOCOL-EXTENSION.md):
 * whether the client advertised {@code supports_throttle_producer_commands} in its CONNECT, the
 * ThrottleProducer commands written to it, and the receipt each quota notice waits for. A client
 * without the flag is never written one: a stock client drops its connection on an unknown command.
 *
 * <p>{@link PublishGate} decides when to notify; this class tells it whether the receipt came in
 * time ({@link PublishGate#noticeAnswered}) or not ({@link PublishGate#noticeMissed}).
 *
 * <p>Confined to the connection's event loop.
 */
final class ThrottleNotices {

    private static final int RECEIPT = BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT_VALUE;

    /** A quota notice awaiting its receipt, and the timer that gives up on it. */
    private record Awaited(ProducerState producer, ScheduledFuture<?> deadline) {
    }

    private final ProxyConnection connection;
    private final long receiptWindowNanos;
    private final LongObjectMap<Awaited> awaited = new LongObjectHashMap<>();
    private boolean clientSupportsNotices;
    private long nextRequestId;

    ThrottleNotices(ProxyConnection connection, long receiptWindowNanos) {
        this.connection = connection;
        this.receiptWindowNanos = receiptWindowNanos;
    }

    /** Records what the client's CONNECT said about the extension. */
    void clientSupportsNotices(boolean supports) {
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
        ScheduledFuture<?> deadline = connection.client.eventLoop()
                .schedule(() -> expired(requestId), receiptWindowNanos, TimeUnit.NANOSECONDS);
        awaited.put(requestId, new Awaited(producer, deadline));
        return requestId;
    }

    /**
     * Tells the client that the connection is over a connection limit and will not be read for a
     * while: every producer gets a notice with pause 0, as information. No receipt is awaited,
     * since the proxy could not read it before reading resumes anyway.
     */
    void connectionLimitExceeded(ThrottlingReason reason) {
        if (!clientSupportsNotices) {
            return;
        }
        for (ProducerState producer : connection.producers.activeResources()) {
            write(producer, reason, 0);
        }
    }

    /** A ThrottleProducerReceipt from the client; consumes and releases {@code frame}. */
    void receipt(ByteBuf frame) {
        long requestId;
        try {
            requestId = FrameReader.readFirstId(frame, RECEIPT);
        } finally {
            frame.release();
        }
        Awaited notice = awaited.remove(requestId);
        // Unknown ids are receipts of connection-limit notices, or of notices already given up on.
        if (notice != null) {
            notice.deadline().cancel(false);
            connection.publish.noticeAnswered(notice.producer(), requestId);
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
        connection.toClient(FrameWriter.throttleProducer(connection.client.alloc(), requestId,
                producer.producerId, reason, pauseMillis));
        return requestId;
    }

    private void expired(long requestId) {
        Awaited notice = awaited.remove(requestId);
        if (notice != null) {
            connection.publish.noticeMissed(notice.producer(), requestId);
        }
    }
}
