package io.sluice.server.it.notify;

import io.netty.channel.Channel;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One producer of the {@link ConformanceClient}: sends sequence-numbered messages as fast as it is
 * allowed to, that is with at most {@code maxInFlight} sends awaiting their receipt, and none while
 * a pause it was asked for lasts. Confined to the client's event loop, except the receipt log.
 */
final class PacedProducer {

    final long producerId;
    private final String producerName;
    private final Channel channel;
    private final Consumer<String> problems;
    private final ConcurrentLinkedQueue<Long> receiptTimes = new ConcurrentLinkedQueue<>();

    private byte[] payload;
    private int maxInFlight;
    private boolean sending;
    private int inFlight;
    private long nextSequenceId;
    private long expectedReceipt;
    private boolean paused;
    private long pausedUntilNanos;
    private ScheduledFuture<?> wakeUp;

    PacedProducer(long producerId, String producerName, Channel channel, Consumer<String> problems) {
        this.producerId = producerId;
        this.producerName = producerName;
        this.channel = channel;
        this.problems = problems;
    }

    void start(int maxInFlight, int payloadSize) {
        this.maxInFlight = maxInFlight;
        this.payload = new byte[payloadSize];
        sending = true;
        pump();
        channel.flush();
    }

    void stop() {
        sending = false;
        if (wakeUp != null) {
            wakeUp.cancel(false);
            wakeUp = null;
        }
    }

    /** Honours a ThrottleProducer: no new send for {@code millis} from now (a longer pause already running wins). */
    void pause(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        if (!paused || until - pausedUntilNanos > 0) {
            pausedUntilNanos = until;
        }
        paused = true;
    }

    /** The broker's SEND_RECEIPT for {@code sequenceId}. */
    void receipt(long sequenceId) {
        if (sequenceId != expectedReceipt) {
            problems.accept("producer " + producerId + ": receipt for " + sequenceId + ", expected " + expectedReceipt);
        }
        expectedReceipt = sequenceId + 1;
        inFlight--;
        receiptTimes.add(System.nanoTime());
        pump();
    }

    /** Receipts that arrived in {@code [fromNanos, toNanos)}; any thread. */
    long receiptsBetween(long fromNanos, long toNanos) {
        return receiptTimes.stream()
                .filter(t -> t - fromNanos >= 0 && t - toNanos < 0)
                .count();
    }

    long receipts() {
        return receiptTimes.size();
    }

    /** Writes as many sends as allowed now; the caller flushes. */
    private void pump() {
        if (!sending || wakeUp != null) {
            return;
        }
        long now = System.nanoTime();
        if (paused && now - pausedUntilNanos < 0) {
            wakeUp = channel.eventLoop().schedule(this::wake, pausedUntilNanos - now, TimeUnit.NANOSECONDS);
            return;
        }
        paused = false;
        while (inFlight < maxInFlight && channel.isActive()) {
            channel.write(
                    SendFrames.send(
                            channel.alloc(),
                            producerId,
                            producerName,
                            nextSequenceId++,
                            System.currentTimeMillis(),
                            payload),
                    channel.voidPromise());
            inFlight++;
        }
    }

    private void wake() {
        wakeUp = null;
        pump();
        channel.flush();
    }
}
