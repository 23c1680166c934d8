package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.relay.FrameView;
import io.sluice.relay.WakeUp;

/**
 * A request of one connection that waits in Sluice until a gate lets it go (a fetch after a
 * response cut to nothing, a share fetch its topics have nothing left for, a Produce request whose
 * batches are due soon, a group's request over its rate), at most until a deadline; the connection
 * takes no request behind it meanwhile, to keep the order of answers. Its timer is one of the
 * connection's one timer.
 *
 * <p>Buffer ownership: the request is a buffer of its own (a slice of the client's bytes, or a cut
 * of them), this class's until it is forwarded (then the connection's) or dropped.
 *
 * <p>Confined to the connection's event loop.
 */
final class HeldRequest {

    private final GateContext context;
    /** The {@link RequestPauses} reason the connection's requests stop for while this one is held. */
    private final int pause;

    private final WakeUp timer;
    private final GateVerdict verdict = new GateVerdict();
    private final RequestHeader header = new RequestHeader();
    private final FrameView view = new FrameView();
    private ByteBuf frame;
    private long heldAtNanos;
    private long untilNanos;

    /**
     * @param pause the {@link RequestPauses} reason the connection's requests stop for meanwhile
     * @param due   what runs when the request is worth a look again: the gate decides whether it goes
     */
    HeldRequest(GateContext context, int pause, Runnable due) {
        this.context = context;
        this.pause = pause;
        this.timer = context.holds().timers().timer(GateContext.MAX_TIMER_NANOS, due);
    }

    /**
     * Holds the lent request {@code lent} until {@code untilNanos} at most, looking at it again in
     * {@code lookAgainNanos}, and stops the connection's requests behind it.
     */
    void hold(FrameView lent, long nowNanos, long untilNanos, long lookAgainNanos) {
        hold(lent.retainedSlice(), nowNanos, untilNanos, lookAgainNanos);
    }

    /** Holds {@code request} as {@link #hold(FrameView, long, long, long)} does; takes ownership. */
    void hold(ByteBuf request, long nowNanos, long untilNanos, long lookAgainNanos) {
        frame = request;
        heldAtNanos = nowNanos;
        this.untilNanos = untilNanos;
        context.pauses().pause(pause);
        timer.schedule(Math.min(untilNanos - nowNanos, lookAgainNanos));
    }

    boolean isHeld() {
        return frame != null;
    }

    /** Whether the request has waited as long as it may. */
    boolean isOver(long nowNanos) {
        return untilNanos - nowNanos <= 0;
    }

    /**
     * For the timer's task: whether a request is held and its deadline has come; when one is held
     * and its deadline has not, the timer looks again at the deadline.
     */
    boolean isDue() {
        if (frame == null) {
            return false;
        }
        long now = context.clock().nanoTime();
        if (!isOver(now)) {
            lookAgainIn(now, Long.MAX_VALUE);
            return false;
        }
        return true;
    }

    /** Looks at the request again in {@code nanos}, or at its deadline if that comes first. */
    void lookAgainIn(long nowNanos, long nanos) {
        timer.schedule(Math.min(untilNanos - nowNanos, nanos));
    }

    long heldAtNanos() {
        return heldAtNanos;
    }

    /** The held request, lent for the call, to read or write in place before it goes. */
    FrameView view() {
        return view.lend(frame, frame.readerIndex(), frame.readableBytes());
    }

    /** Forwards the held request through {@code exchange} and lets the connection's requests go on. */
    void forward(Exchange exchange) {
        ByteBuf request = frame;
        frame = null;
        header.read(view.lend(request, request.readerIndex(), request.readableBytes()));
        context.out().act(verdict.forward(request, exchange), null, header);
        context.out().flush();
        context.pauses().resume(pause);
    }

    /**
     * Hands the held request, lent for the call, to {@code decider}, which decides it as any other;
     * then drops it and lets the connection's requests go on.
     */
    void decide(TopicIdWait.Decider decider) {
        timer.cancel();
        ByteBuf request = frame;
        frame = null;
        try {
            header.read(view.lend(request, request.readerIndex(), request.readableBytes()));
            context.out().act(decider.decide(view, header), view, header);
        } finally {
            request.release();
        }
        context.out().flush();
        context.pauses().resume(pause);
    }

    /** The connection closes: the request is dropped with it. */
    void drop() {
        timer.cancel();
        if (frame != null) {
            frame.release();
            frame = null;
        }
    }
}
