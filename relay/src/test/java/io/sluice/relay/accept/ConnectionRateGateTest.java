package io.sluice.relay.accept;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.relay.ClientAddress;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.GateWorld;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** New connections held to their address's rate, on the manual loop's clock. */
@ExtendWith(LeakCheck.class)
class ConnectionRateGateTest {

    private final GateWorld world = new GateWorld("toy");
    private final ConnectionRates rates = new ConnectionRates(world.quotas);
    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final List<Accepted> accepted = new ArrayList<>();

    @AfterEach
    void nothingLeft() {
        accepted.forEach(client -> client.channel.finishAndReleaseAll());
        world.loop.runTasks();
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
        assertFalse(world.loop.hasTimers(), "a timer outlived its connection");
    }

    private void limitEachAddress(double perSecond, double burstSeconds) {
        world.limit(
                new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME),
                Limit.connections(new EventRate(perSecond, burstSeconds)));
    }

    private Accepted connect(String address) throws Exception {
        Accepted client = new Accepted();
        client.channel.config().setAllocator(alloc);
        if (address != null) {
            client.channel.attr(ClientAddress.KEY).set(new InetSocketAddress(address, 50000));
        }
        client.channel
                .pipeline()
                .addLast(new ConnectionRateGate(rates, world.services.stats(), "toy connection"), client);
        world.loop.register(client.channel);
        world.loop.runTasks();
        accepted.add(client);
        return client;
    }

    private long opened() {
        return accepted.stream().filter(client -> client.opened).count();
    }

    private long refused() {
        return world.services.stats().refusedConnections().getOrDefault(ConnectionRateGate.REASON, 0L);
    }

    @Test
    void withoutALimitEveryConnectionOpensAtOnceAndTheGateLeaves() throws Exception {
        Accepted client = connect(null);
        assertTrue(client.opened);
        assertNull(client.channel.pipeline().get(ConnectionRateGate.class));
    }

    @Test
    void overTheRateAnAcceptIsDelayedUnreadThenOpensWithWhatTheClientSent() throws Exception {
        limitEachAddress(10, 1);
        for (int i = 0; i < 10; i++) {
            assertTrue(connect("10.0.0.1").opened, "the burst: connection " + i);
        }
        // The engine's buckets admit while their balance is positive: one more a moment later.
        connect("10.0.0.1");
        world.advance(1);
        Accepted late = connect("10.0.0.1");
        assertFalse(late.opened);
        assertFalse(late.channel.config().isAutoRead(), "the client is not read while held");
        late.channel.writeInbound(alloc.buffer().writeBytes("hello".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0, late.bytes.size(), "nothing passes on before the connection opens");

        world.advance(98);
        assertFalse(late.opened);
        world.advance(2);
        assertTrue(late.opened, "10/s: the next connection a tenth of a second on");
        assertTrue(late.channel.config().isAutoRead());
        assertEquals("hello", late.bytes.toString(StandardCharsets.UTF_8));
        assertNull(late.channel.pipeline().get(ConnectionRateGate.class));
        assertEquals(12, opened());
        assertEquals(0, refused());
    }

    @Test
    void moreThanASecondOverTheRateIsClosedAfterASecondAndCounted() throws Exception {
        limitEachAddress(10, 1);
        for (int i = 0; i < 40; i++) {
            connect("10.0.0.1");
        }
        assertEquals(10, opened());
        Accepted last = accepted.get(accepted.size() - 1);
        last.channel.writeInbound(alloc.buffer().writeBytes(new byte[] {1, 2, 3}));
        world.advance(999);
        assertTrue(last.channel.isOpen());
        assertEquals(0, refused());
        world.advance(1);
        long opened = opened();
        assertTrue(opened >= 20 && opened <= 21, "the burst, then those due within a second, in turn: " + opened);
        assertFalse(last.opened);
        assertFalse(last.channel.isOpen(), "closed after a second (KIP-612)");
        assertEquals(40 - opened, refused());
        assertEquals(
                40 - opened,
                accepted.stream().filter(client -> !client.channel.isOpen()).count());
    }

    @Test
    void anotherAddressIsNotSlowedAndABlockIsLimitedTogether() throws Exception {
        limitEachAddress(1, 1);
        world.limit(new ScopeRef(ScopeKind.IPS, "192.0.2.0/24"), Limit.connections(new EventRate(2.0, 1.0)));
        assertTrue(connect("10.0.0.1").opened);
        assertFalse(connect("10.0.0.1").opened);
        assertTrue(connect("10.0.0.2").opened, "an address of its own");
        assertTrue(connect("192.0.2.1").opened);
        assertTrue(connect("192.0.2.2").opened);
        assertFalse(connect("192.0.2.3").opened, "the block's two a second, together");
        world.advance(1_000);
    }

    @Test
    void aClientThatLeavesWhileHeldLeavesNothingBehind() throws Exception {
        limitEachAddress(1, 1);
        connect("10.0.0.1");
        Accepted held = connect("10.0.0.1");
        held.channel.writeInbound(alloc.buffer().writeBytes(new byte[] {1}));
        held.channel.close();
        world.loop.runTasks();
        assertFalse(world.loop.hasTimers());
        assertFalse(held.opened);
    }

    @Test
    void aChangedLimitIsInForceForTheNextConnection() throws Exception {
        assertTrue(connect("10.0.0.1").opened);
        limitEachAddress(1, 1);
        assertTrue(connect("10.0.0.1").opened);
        assertFalse(connect("10.0.0.1").opened);
        world.limits(world.quotas.limits().withLimit(new ScopeRef(ScopeKind.IPS, ScopeKind.DEFAULT_NAME), null));
        assertTrue(connect("10.0.0.1").opened);
        world.advance(1_000);
    }

    /** A client channel, and what reached the handler after the gate. */
    private static final class Accepted extends ChannelInboundHandlerAdapter {

        final EmbeddedSocketChannel channel = new EmbeddedSocketChannel();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean opened;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            opened = true;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                byte[] read = new byte[buf.readableBytes()];
                buf.readBytes(read);
                bytes.writeBytes(read);
            } finally {
                buf.release();
            }
        }
    }
}
