package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.relay.FrameView;
import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.MalformedFrameException;

import java.util.concurrent.TimeUnit;

/**
 * Cuts a byte stream of length-prefixed frames into whole frames and lends each to the next
 * handler as a {@link FrameView} of the bytes read, length prefix included: reading a frame or
 * forwarding it unchanged costs no allocation, and a frame that passes through goes out as the
 * very bytes that came in. The view is valid during the call only; a handler that keeps a frame
 * takes {@link FrameView#retainedSlice()}. What a frame's prefix must say is the protocol's
 * {@link FrameRule}, checked against a largest size that a {@link ProxiedConnection} may change
 * (a Pulsar broker tells its own in CONNECTED).
 *
 * <p>Owns what it has read: the bytes of frames not yet whole, and the read buffer while its
 * frames are lent. A frame that one read leaves unfinished is completed with only the bytes it
 * lacks from the next read, and the rest of that read is lent from the read buffer itself, so a
 * stream of frames that straddle reads costs a copy of one frame per read, not of every read.
 * A buffer that still holds part of a frame is appended to while nobody else holds a reference to
 * it, and copied into a new one otherwise, so bytes lent or kept earlier never move.
 *
 * <p>Paused by its {@link ProxiedConnection} (for the reasons that stop decoding, and for good
 * when it closes), it lends no frame and keeps what arrives; resumed, it decodes what it kept from
 * a task of its own, then passes a read-complete on so that what the frames caused is flushed.
 *
 * <p>A rule that finds a frame malformed raises a {@link MalformedFrameException}, and everything
 * buffered is dropped: nothing later in the stream can be trusted. The connection closes.
 *
 * <p>A client's decoder answers to the process's {@link IncompleteFrames}: after a read that leaves
 * it holding bytes it reports how many, and when told to stop it fires {@link Reads#STOP} down the
 * pipeline (the connection stops reading its socket) and {@link Reads#RESUME} once the total has
 * fallen, when the frame it holds gets the whole timeout again. A frame still incomplete {@link IncompleteFrames#frameTimeout()} after the read that
 * brought its first bytes raises a {@link MalformedFrameException} {@code frame_timeout}: one timer
 * per connection, armed by the first read that ends in an incomplete frame and re-armed from its
 * expiry only while frames keep ending reads incomplete. None of this runs for a read of whole
 * frames, nor while the decoder is paused (Sluice, not the client, holds its frames then); a
 * deadline that passes while Sluice stops reading the socket for a reason of its own other than
 * this bound (back-pressure, a quota) starts again.
 *
 * <p>Confined to the channel's event loop.
 */
public final class FrameDecoder extends ChannelInboundHandlerAdapter {

    /** What a client's decoder asks of its connection, as user events down the pipeline. */
    public enum Reads {
        /** Stop reading the socket: the process holds too many bytes of incomplete frames. */
        STOP,
        /** Read the socket again. */
        RESUME
    }

    /** {@link #incompleteSince} while the decoder does not hold an incomplete frame. */
    private static final long NONE = Long.MIN_VALUE;

    /** The {@code sluice_protocol_errors_total} reason of a frame not whole in time. */
    public static final String FRAME_TIMEOUT = "frame_timeout";

    private final FrameRule rule;
    /** The process's bound, for a client's decoder; null for an upstream's, whose frames the broker sends. */
    private final IncompleteFrames bounds;

    private final FrameView frame = new FrameView();
    private final Runnable wake = this::decodeKept;
    private ChannelHandlerContext ctx;
    /** The bytes not yet lent, starting at a frame's first byte; null when there are none. */
    private ByteBuf buffered;
    /**
     * Reads that came after {@link #buffered} ends in a partial frame; the decoder takes from them
     * only what that frame lacks, then lends the rest in place. Null when there are none.
     */
    private ByteBuf following;

    private int maxFrameSize;
    private boolean paused;
    private boolean decoding;
    /** The bytes last reported to {@link #bounds}. */
    private long held;

    private boolean readsStopped;
    /** When the read that began the incomplete frame came (the event loop's ticker), or {@link #NONE}. */
    private long incompleteSince = NONE;

    private ScheduledFuture<?> frameTimer;
    private final Runnable frameTimerExpired = this::frameTimerExpired;
    private final Runnable resumeReads = this::resumeReads;
    private final Runnable wakeReads = () -> ctx.executor().execute(resumeReads);

    /**
     * A decoder of an upstream's frames, which the broker sends: no bound, no frame timeout.
     *
     * @param maxFrameSize the largest size a frame's prefix may declare, until the connection changes it
     */
    public FrameDecoder(FrameRule rule, int maxFrameSize) {
        this(rule, maxFrameSize, null);
    }

    /**
     * A decoder of a client's frames.
     *
     * @param maxFrameSize the largest size a frame's prefix may declare, until the connection changes it
     * @param bounds       the process's bound on incomplete frames, or null for none
     */
    public FrameDecoder(FrameRule rule, int maxFrameSize, IncompleteFrames bounds) {
        this.rule = rule;
        this.bounds = bounds;
        maxFrameSize(maxFrameSize);
    }

    /** The largest size a frame's prefix may declare now. */
    public int maxFrameSize() {
        return maxFrameSize;
    }

    void maxFrameSize(int maxFrameSize) {
        if (maxFrameSize <= 0 || maxFrameSize > Integer.MAX_VALUE - 4) {
            throw new IllegalArgumentException(
                    "maxFrameSize must be positive and leave room for the length prefix: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /**
     * Stops lending frames; bytes received stay buffered. With reading paused as well, this bounds
     * what a flooding client can push past the proxy's limits to what one read brings.
     */
    void pause() {
        paused = true;
    }

    /** Lends frames again, first those buffered while paused, from a task of their own. */
    void resume() {
        if (!paused) {
            return;
        }
        paused = false;
        if ((buffered != null || following != null) && ctx != null) {
            ctx.executor().execute(wake);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf read)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (buffered == null) {
            buffered = read;
        } else if (following == null) {
            following = read;
        } else {
            // Reads that came while paused: ours alone, so they can be appended to in place.
            try {
                following = append(ctx.alloc(), following, read, read.readableBytes());
            } finally {
                read.release();
            }
        }
        if (!decoding) {
            settle(decode());
        }
        // Else a handler fired bytes at us while taking a frame: the decode under way comes to them.
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseAll();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseAll();
    }

    /** Lends every whole frame it holds, unless paused; returns whether it lent any. */
    private boolean decode() {
        decoding = true;
        boolean lent = false;
        try {
            while (!paused && buffered != null) {
                int length = frameLength(buffered);
                if (length >= 0 && buffered.readableBytes() >= length) {
                    int start = buffered.readerIndex();
                    buffered.skipBytes(length);
                    lent = true;
                    ctx.fireChannelRead(frame.lend(buffered, start, length));
                    if (buffered != null && !buffered.isReadable()) {
                        nextRead();
                    }
                } else if (following != null) {
                    completeFromFollowing(length);
                } else {
                    break;
                }
            }
        } finally {
            decoding = false;
            if (buffered != null && !buffered.isReadable()) {
                nextRead();
            }
        }
        return lent;
    }

    /**
     * After a decode: reports what is held to the process's bound, and starts the frame deadline
     * when a frame is left incomplete. Costs two tests when the decode left nothing held.
     */
    private void settle(boolean lent) {
        if (bounds == null) {
            return;
        }
        if (buffered == null) {
            if (held != 0) {
                report(0);
            }
            incompleteSince = NONE;
            return;
        }
        report(buffered.readableBytes() + (following == null ? 0 : (long) following.readableBytes()));
        if (paused) {
            incompleteSince = NONE;
        } else if (lent || incompleteSince == NONE) {
            // A new frame began in this read: its deadline runs from now.
            incompleteSince = ctx.executor().ticker().nanoTime();
            if (frameTimer == null) {
                armFrameTimer(bounds.frameTimeout().toNanos());
            }
        }
    }

    /** Reports that the decoder holds {@code now} bytes, and stops reading when the bound says so. */
    private void report(long now) {
        if (now == held) {
            return;
        }
        long before = held;
        held = now;
        if (bounds.held(before, now)) {
            if (!readsStopped) {
                readsStopped = true;
                ctx.fireUserEventTriggered(Reads.STOP);
                bounds.stopUntilFallen(wakeReads);
            }
        } else if (readsStopped && now == 0) {
            // Holding nothing, it keeps nobody else from reading.
            resumeReads();
        }
    }

    private void resumeReads() {
        if (readsStopped && !ctx.isRemoved()) {
            readsStopped = false;
            if (incompleteSince != NONE) {
                // Its frame waited for others to be done: it has the whole timeout again.
                incompleteSince = ctx.executor().ticker().nanoTime();
            }
            ctx.fireUserEventTriggered(Reads.RESUME);
        }
    }

    private void armFrameTimer(long delayNanos) {
        frameTimer = ctx.executor().schedule(frameTimerExpired, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void frameTimerExpired() {
        frameTimer = null;
        if (incompleteSince == NONE || ctx.isRemoved()) {
            return;
        }
        long timeout = bounds.frameTimeout().toNanos();
        long now = ctx.executor().ticker().nanoTime();
        long left = incompleteSince + timeout - now;
        if (left > 0) {
            armFrameTimer(left);
            return;
        }
        if (!readsStopped && !ctx.channel().config().isAutoRead()) {
            // Sluice stopped reading the client (back-pressure, a quota): not the client's delay.
            incompleteSince = now;
            armFrameTimer(timeout);
            return;
        }
        incompleteSince = NONE;
        releaseAll();
        ctx.fireExceptionCaught(new MalformedFrameException(
                FRAME_TIMEOUT,
                "a frame was still incomplete " + bounds.frameTimeout().toMillis() + " ms after it began"));
    }

    /**
     * Moves into {@link #buffered}, whose frame is not whole, what that frame lacks from
     * {@link #following}: all of it while the frame's length is not known yet (-1).
     */
    private void completeFromFollowing(int length) {
        int lacking = length < 0 ? following.readableBytes() : length - buffered.readableBytes();
        int take = Math.min(lacking, following.readableBytes());
        buffered = append(ctx.alloc(), buffered, following, take);
        if (!following.isReadable()) {
            following.release();
            following = null;
        }
    }

    /** Lends what was buffered while paused; the read-complete after it flushes what it caused. */
    private void decodeKept() {
        if (paused || ctx.isRemoved()) {
            return;
        }
        try {
            settle(decode());
        } catch (MalformedFrameException e) {
            ctx.fireExceptionCaught(e);
        } finally {
            ctx.fireChannelReadComplete();
        }
    }

    private int frameLength(ByteBuf in) {
        try {
            return rule.frameLength(in, maxFrameSize);
        } catch (MalformedFrameException e) {
            releaseAll();
            throw e;
        }
    }

    /**
     * Moves {@code count} bytes from {@code from} to the end of {@code to}, returning the buffer that
     * now holds {@code to}'s bytes and them: {@code to} itself, or a new buffer (and {@code to}
     * released) when others hold frames in {@code to} or it has no room. Takes ownership of
     * {@code to}; {@code from} stays the caller's.
     */
    private static ByteBuf append(ByteBufAllocator alloc, ByteBuf to, ByteBuf from, int count) {
        boolean alone = to.refCnt() == 1;
        ByteBuf target = to;
        if (to.isReadOnly() || count > to.maxWritableBytes() || (!alone && count > to.maxFastWritableBytes())) {
            // Others hold frames in this buffer (lent, held): leave them be, go on in a new one.
            target = alloc.buffer(to.readableBytes() + count);
            target.writeBytes(to);
            to.release();
        } else if (alone && count > to.maxFastWritableBytes()) {
            // Ours alone: make room by moving the partial frame to the front.
            to.discardReadBytes();
        }
        target.writeBytes(from, count);
        return target;
    }

    /** Every byte of {@link #buffered} is lent: goes on with the reads that followed it. */
    private void nextRead() {
        buffered.release();
        buffered = following;
        following = null;
    }

    private void releaseAll() {
        if (frameTimer != null) {
            frameTimer.cancel(false);
            frameTimer = null;
        }
        incompleteSince = NONE;
        if (buffered != null) {
            buffered.release();
            buffered = null;
        }
        if (following != null) {
            following.release();
            following = null;
        }
        if (bounds != null) {
            report(0);
        }
    }
}
