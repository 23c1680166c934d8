package io.sluice.relay;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the frames clients have not finished sending may hold, process-wide, all front ends
 * together (docs/REFERENCE.md, {@code --max-buffered-bytes} and {@code --frame-timeout}): the
 * bytes every client {@link io.sluice.relay.connection.FrameDecoder} keeps, against one bound, and how long one frame may
 * take to arrive.
 *
 * <p>Past the bound, the connections with the largest incomplete frames stop being read: each
 * decoder whose read leaves the total over the bound stops if it holds at least its fair share of
 * the bound (the bound divided among the connections that hold anything). The largest always
 * does, since over the bound the average is above the fair share, and a small frame that
 * straddles two reads goes on, up to an eighth over the bound: past that every connection whose
 * frame grows stops. They are read again once the total falls to seven eighths of the bound: when
 * frames complete, or connections close (a frame that stops arriving is closed by the frame
 * timeout, so stopped connections cannot hold the bytes for ever). So the total passes the bound
 * by an eighth at most, and by what one read brings to each connection as it stops.
 *
 * <p>Thread-safe: every event loop reports its decoders' bytes; a decoder reports once per read
 * that leaves it holding bytes, never per frame, and a read of whole frames reports nothing.
 */
public final class IncompleteFrames {

    /** {@code --frame-timeout} when none is given. */
    public static final Duration DEFAULT_FRAME_TIMEOUT = Duration.ofSeconds(30);

    private final long maxBytes;
    private final long resumeAt;
    private final long ceiling;
    private final Duration frameTimeout;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicInteger holders = new AtomicInteger();
    private final LongAdder stops = new LongAdder();
    private final ConcurrentLinkedQueue<Runnable> stopped = new ConcurrentLinkedQueue<>();

    /**
     * @param maxBytes     {@code --max-buffered-bytes}: past it the largest stop being read
     * @param frameTimeout {@code --frame-timeout}: how long a frame may take from its first byte to its last
     */
    public IncompleteFrames(long maxBytes, Duration frameTimeout) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
        Objects.requireNonNull(frameTimeout, "frameTimeout");
        if (frameTimeout.isNegative() || frameTimeout.isZero()) {
            throw new IllegalArgumentException("the frame timeout must be positive");
        }
        this.maxBytes = maxBytes;
        this.resumeAt = maxBytes - maxBytes / 8;
        this.ceiling = maxBytes + maxBytes / 8;
        this.frameTimeout = frameTimeout;
    }

    /** A quarter of {@code maxDirectMemory}: the default bound, leaving the rest to frames in flight. */
    public static long defaultMaxBytes(long maxDirectMemory) {
        return Math.max(1, maxDirectMemory / 4);
    }

    /** {@code --max-buffered-bytes}. */
    public long maxBytes() {
        return maxBytes;
    }

    /** {@code --frame-timeout}. */
    public Duration frameTimeout() {
        return frameTimeout;
    }

    /** Bytes client decoders hold now. */
    public long bytes() {
        return bytes.get();
    }

    /** How many times a connection stopped being read because the total was over the bound, since start. */
    public long stops() {
        return stops.sum();
    }

    /**
     * One decoder now holds {@code after} bytes, where it held {@code before}; returns whether it
     * must stop being read (the total is over the bound and it holds at least its fair share, or
     * the total is an eighth over the bound).
     */
    public boolean held(long before, long after) {
        if (before == 0) {
            holders.incrementAndGet();
        } else if (after == 0) {
            holders.decrementAndGet();
        }
        long total = bytes.addAndGet(after - before);
        if (after < before) {
            if (total <= resumeAt && !stopped.isEmpty()) {
                wakeAll();
            }
            return false;
        }
        return total > maxBytes && (after * holders.get() >= maxBytes || total > ceiling);
    }

    /**
     * The decoder that {@link #held} told to stop has stopped reading; {@code wake}, called from
     * any thread, is run once the total has fallen to where reading may resume.
     */
    public void stopUntilFallen(Runnable wake) {
        stops.increment();
        stopped.add(wake);
        // The total may have fallen between held() and now, with nobody left to wake us.
        if (bytes.get() <= resumeAt) {
            wakeAll();
        }
    }

    private void wakeAll() {
        Runnable wake;
        while ((wake = stopped.poll()) != null) {
            wake.run();
        }
    }
}
