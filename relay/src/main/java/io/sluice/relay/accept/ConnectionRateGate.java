package io.sluice.relay.accept;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaPath;
import io.sluice.relay.ClientAddress;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.RefusedConnections;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The first handler of a client's pipeline after the PROXY protocol's: holds a new connection to
 * its address's rate of new connections ({@link ConnectionRates}) when it opens, that is when its
 * address is known. Within the rate, the connection opens at once; over it, its accept is delayed
 * until the bucket admits it, when that is at most {@link #MAX_DELAY_NANOS} away (the bucket is
 * charged now, so the connections waiting are the rate's), and otherwise closed after that second
 * (as Kafka's KIP-612 does), counted in {@code sluice_connections_refused_total} under
 * {@link #REASON}. Meanwhile the client is not read, what was read already waits here, and
 * {@code channelActive} is held back, so no upstream is opened. Then the gate leaves the pipeline.
 *
 * <p>One timer per held connection on its event loop; one instance per connection.
 */
public final class ConnectionRateGate extends ChannelInboundHandlerAdapter {

    /** The {@code reason} a connection over its address's rate is refused with. */
    public static final String REASON = "connection_rate";

    /** The longest an accept is delayed before the connection is closed instead. */
    public static final long MAX_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final RefusedConnections REFUSED = new RefusedConnections();

    private final ConnectionRates rates;
    private final ProxyStats stats;
    private final String connections;
    /** What the client sent while held, in order; owned here until passed on or released. */
    private ArrayDeque<Object> held;

    private ScheduledFuture<?> timer;

    /**
     * @param rates where connections are charged
     * @param stats counts a refused connection
     * @param connections what the port's connections are called in log lines: {@code Kafka connection}
     */
    public ConnectionRateGate(ConnectionRates rates, ProxyStats stats, String connections) {
        this.rates = rates;
        this.stats = stats;
        this.connections = connections;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        SocketAddress client = ClientAddress.of(ctx.channel());
        QuotaPath path = client instanceof InetSocketAddress inet && inet.getAddress() != null
                ? rates.pathOf(inet.getAddress())
                : null;
        long now = rates.quotas().clock().nanoTime();
        if (path == null || path.tryAcquire(now, 1, 0, new QuotaDecision())) {
            open(ctx);
            return;
        }
        held = new ArrayDeque<>(2);
        ctx.channel().config().setAutoRead(false);
        long wait = path.waitNanos(now, 1, 0);
        if (wait <= MAX_DELAY_NANOS) {
            path.charge(now, 1, 0);
            timer = ctx.executor().schedule(() -> open(ctx), wait, TimeUnit.NANOSECONDS);
        } else {
            timer = ctx.executor().schedule(() -> refuse(ctx, client), MAX_DELAY_NANOS, TimeUnit.NANOSECONDS);
        }
    }

    /** Keeps {@code msg} (taking ownership) while the connection is held; passes it on otherwise. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (held != null) {
            held.add(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (held == null) {
            ctx.fireChannelReadComplete();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        let();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        let();
    }

    /** Opens the connection: the handlers after this one see it open, then what it sent so far. */
    private void open(ChannelHandlerContext ctx) {
        timer = null;
        ArrayDeque<Object> early = held;
        held = null;
        if (!ctx.channel().isActive()) {
            release(early);
            return;
        }
        if (early != null) {
            // Before the connection opens, so that a pause of its own while it opens holds.
            ctx.channel().config().setAutoRead(true);
        }
        ctx.fireChannelActive();
        if (early != null && !early.isEmpty()) {
            Object msg;
            while ((msg = early.poll()) != null) {
                ctx.fireChannelRead(msg);
            }
            ctx.fireChannelReadComplete();
        }
        ctx.pipeline().remove(this);
    }

    private void refuse(ChannelHandlerContext ctx, SocketAddress client) {
        timer = null;
        release(held);
        held = null;
        REFUSED.refuse(ctx, client, connections, stats, REASON, "over its address's rate of new connections");
    }

    /** Lets go of the timer and what was held: the connection closed, or the gate left. */
    private void let() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        release(held);
        held = null;
    }

    private static void release(ArrayDeque<Object> early) {
        if (early != null) {
            early.forEach(ReferenceCountUtil::release);
            early.clear();
        }
    }
}
