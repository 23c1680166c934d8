package io.sluice.relay.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslProvider;
import io.sluice.relay.Drain;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.ReadGate;
import io.sluice.relay.connection.ConnectionSpec.Framing;
import io.sluice.relay.connection.ConnectionSpec.Handshake;
import io.sluice.relay.connection.ConnectionState.Accepted;
import io.sluice.relay.connection.ConnectionState.AwaitingFirstFrame;
import io.sluice.relay.connection.ConnectionState.Closed;
import io.sluice.relay.connection.ConnectionState.Connecting;
import io.sluice.relay.connection.ConnectionState.Draining;
import io.sluice.relay.connection.ConnectionState.Forwarding;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.UpstreamTlsFiles;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.GateWorld;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ManualEventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One connection on the relay's skeleton, in memory, with a toy protocol of int32-sized frames
 * whose upstream opens at the first frame (declared to the relay, which tries its addresses in
 * turn, or opened by the toy itself, which then decides what a failure means), forwards every frame
 * and counts what awaits an answer: each state's legal transitions, the illegal ones failing
 * loudly, the connect failure paths, back-pressure, the handshake deadline, drain and close.
 */
@ExtendWith(LeakCheck.class)
class ProxiedConnectionTest {

    private static final int UPSTREAM_PORT = 9092;
    private static final long HANDSHAKE_MILLIS = 5_000;

    private final GateWorld world = new GateWorld("toy");
    private final ManualEventLoop loop = world.loop;
    private final ProxyServices services = world.services;
    private final ProxyStats stats = services.stats();
    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final List<EmbeddedSocketChannel> upstreams = new ArrayList<>();
    private EmbeddedSocketChannel client;
    private Toy toy;
    private boolean refuseOnOpen;
    /** Whether the toy opens its upstream itself, as Pulsar does, rather than declaring it to the relay. */
    private boolean connectsItself;

    @AfterEach
    void nothingLeft() {
        if (client != null) {
            client.finishAndReleaseAll();
            loop.runTasks();
            upstreams.addAll(EmbeddedSocketChannel.takeBootstrapped());
            upstreams.forEach(EmbeddedSocketChannel::finishAndReleaseAll);
            loop.runTasks();
        }
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
        assertEquals(0, stats.openConnections(), "connection still counted as open");
        assertFalse(loop.hasTimers(), "a timer outlived its connection");
    }

    @Test
    void aFrameForTheUpstreamOpensItAndWaitsThereUntilItIsUp() {
        accept(ReadGate.CONNECTING);
        assertInstanceOf(AwaitingFirstFrame.class, toy.relay.state());

        client.writeInbound(frame("first"));

        Connecting connecting = assertInstanceOf(Connecting.class, toy.relay.state());
        assertEquals(1, connecting.early().size());
        assertFalse(client.config().isAutoRead(), "the client is not read while its upstream is opened");

        loop.runTasks();

        assertInstanceOf(Forwarding.class, toy.relay.state());
        assertArrayEquals(frames("first"), received(upstream()));
        assertTrue(client.config().isAutoRead());
    }

    @Test
    void framesSentWhileTheUpstreamIsOpenedGoFirstInOrder() {
        accept(0);
        client.writeInbound(frame("a"), frame("b"));
        client.writeInbound(frame("c"));
        assertEquals(
                3, assertInstanceOf(Connecting.class, toy.relay.state()).early().size());

        loop.runTasks();
        client.writeInbound(frame("d"));

        assertArrayEquals(frames("a", "b", "c", "d"), received(upstream()));
    }

    @Test
    void moreFramesThanMayWaitForTheUpstreamCloseTheConnection() {
        accept(0);
        for (int i = 0; i <= EarlyFrames.MAX; i++) {
            client.writeInbound(frame("early"));
        }

        assertFalse(client.isOpen());
        assertEquals(Map.of("early_frames", 1L), stats.protocolErrors());
        assertTrue(toy.closed);
    }

    @Test
    void aDeclaredUpstreamsAddressesAreTriedInTurnWithoutAskingTheProtocol() {
        accept(ReadGate.CONNECTING, RefusingSocketChannel.REFUSED_PORT, UPSTREAM_PORT);

        client.writeInbound(frame("first"));
        loop.runTasks();

        assertInstanceOf(Forwarding.class, toy.relay.state());
        assertEquals(1, stats.upstreamConnectFailures());
        assertEquals(List.of(), toy.failures, "the relay went on to the next address itself");
        List<EmbeddedSocketChannel> opened = EmbeddedSocketChannel.takeBootstrapped();
        upstreams.addAll(opened);
        assertEquals(2, opened.size());
        assertFalse(opened.get(0).isOpen(), "the refused attempt is closed");
        assertArrayEquals(frames("first"), received(opened.get(1)), "the early frame waited for the next attempt");
        assertTrue(client.config().isAutoRead());
    }

    @Test
    void aDeclaredUpstreamWithNoAddressLeftClosesTheConnection() {
        accept(0, RefusingSocketChannel.REFUSED_PORT);

        client.writeInbound(frame("first"));
        loop.runTasks();

        assertFalse(client.isOpen());
        assertInstanceOf(Closed.class, toy.relay.state());
        assertEquals(1, stats.upstreamConnectFailures());
        assertTrue(toy.closed);
    }

    @Test
    void aDeclaredUpstreamWithNoAddressKnownClosesTheConnectionAtItsFirstFrame() {
        accept(0);
        toy.ports.clear();

        client.writeInbound(frame("first"));

        assertFalse(client.isOpen());
        assertInstanceOf(Closed.class, toy.relay.state());
        assertEquals(1, stats.upstreamConnectFailures());
        assertEquals(List.of(), EmbeddedSocketChannel.takeBootstrapped(), "nothing dialled");
        assertEquals(List.of("first"), toy.fromClient);
    }

    @Test
    void aRefusedAttemptGoesBackToAcceptedAndTheFrontEndTriesTheNextAddress() {
        connectsItself = true;
        accept(ReadGate.CONNECTING, RefusingSocketChannel.REFUSED_PORT, UPSTREAM_PORT);

        client.writeInbound(frame("first"));
        loop.runTasks();

        assertEquals(1, toy.failures.size());
        UpstreamFailure failure = toy.failures.get(0);
        assertEquals("127.0.0.1", failure.host());
        assertEquals(RefusingSocketChannel.REFUSED_PORT, failure.port());
        assertFalse(failure.inTlsHandshake());
        assertTrue(failure.reason().startsWith("java.net.ConnectException: Connection refused"), failure.reason());
        assertTrue(failure.message().startsWith("Connection refused"), failure.message());
        assertEquals(1, stats.upstreamConnectFailures());
        assertInstanceOf(Forwarding.class, toy.relay.state());
        List<EmbeddedSocketChannel> opened = EmbeddedSocketChannel.takeBootstrapped();
        upstreams.addAll(opened);
        assertEquals(2, opened.size());
        assertFalse(opened.get(0).isOpen(), "the refused attempt is closed");
        assertArrayEquals(frames("first"), received(opened.get(1)), "the early frame waited for the next attempt");
    }

    @Test
    void aFrontEndThatRefusesAfterAFailedAttemptAnswersTheClientAndCloses() {
        connectsItself = true;
        accept(0, RefusingSocketChannel.REFUSED_PORT);
        toy.refuseWith = "cannot reach the upstream";

        client.writeInbound(frame("first"));
        loop.runTasks();

        assertArrayEquals(frames("cannot reach the upstream"), received(client));
        assertFalse(client.isOpen());
        assertInstanceOf(Closed.class, toy.relay.state());
        assertEquals(1, stats.upstreamConnectFailures());
    }

    @Test
    void aFailedAttemptTheFrontEndDoesNothingAboutClosesTheConnection() {
        connectsItself = true;
        accept(0, RefusingSocketChannel.REFUSED_PORT);

        client.writeInbound(frame("first"));
        loop.runTasks();

        assertFalse(client.isOpen());
        assertTrue(toy.closed);
    }

    @Test
    void aFailedTlsHandshakeWithTheUpstreamIsReportedAsSuch() {
        ReloadingSslContext tls = ReloadingSslContext.load(
                "the test upstream", new UpstreamTlsFiles(null), SslProvider.JDK, stats::tlsReloadFailed);
        connectsItself = true;
        accept(spec(0, new UpstreamDialer(RefusingSocketChannel.class, 1_000, WriteBufferWaterMark.DEFAULT, tls)));
        client.writeInbound(frame("first"));
        loop.runTasks();
        EmbeddedSocketChannel upstream = upstream();
        assertTrue(received(upstream).length > 0, "a ClientHello");

        upstream.writeInbound(
                alloc.heapBuffer().writeBytes("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        loop.runTasks();

        assertEquals(1, toy.failures.size());
        assertTrue(toy.failures.get(0).inTlsHandshake());
        assertEquals(
                "TLS handshake failed: the peer does not speak TLS",
                toy.failures.get(0).reason());
        assertFalse(client.isOpen());
        assertEquals(1, stats.upstreamConnectFailures());
    }

    @Test
    void theClientLeavingWhileTheUpstreamIsOpenedClosesTheAttemptAndCountsNoFailure() {
        accept(0);
        client.writeInbound(frame("first"));
        toy.relay.close();
        loop.runTasks();

        assertInstanceOf(Closed.class, toy.relay.state());
        assertFalse(upstream().isOpen());
        assertEquals(0, stats.upstreamConnectFailures());
        assertTrue(toy.closed);
    }

    @Test
    void openingAnotherUpstreamIsIllegalWhileOneIsDeclaredOrOpenedOrUpOrAfterTheClose() {
        accept(0);
        assertThrows(IllegalStateException.class, () -> toy.relay.connect("127.0.0.1", UPSTREAM_PORT, f -> {}));
        assertThrows(IllegalStateException.class, () -> toy.relay.connectAtFirstFrame(List::of));
        client.writeInbound(frame("first"));
        assertThrows(IllegalStateException.class, () -> toy.relay.connect("127.0.0.1", UPSTREAM_PORT, f -> {}));

        loop.runTasks();
        assertInstanceOf(Forwarding.class, toy.relay.state());
        assertThrows(IllegalStateException.class, () -> toy.relay.connect("127.0.0.1", UPSTREAM_PORT, f -> {}));

        toy.relay.close();
        assertThrows(IllegalStateException.class, () -> toy.relay.connect("127.0.0.1", UPSTREAM_PORT, f -> {}));
        received(upstream());
    }

    @Test
    void aFrameForAnUpstreamTheFrontEndDoesNotOpenFailsLoudlyAndIsReleased() {
        connectsItself = true;
        accept(0);
        assertInstanceOf(Accepted.class, toy.relay.state());
        ByteBuf frame = frame("nowhere");

        assertThrows(IllegalStateException.class, () -> toy.relay.toUpstream(frame));
        assertEquals(0, frame.refCnt());
    }

    @Test
    void limitingFramesBeforeTheUpstreamIsUpIsIllegalAndOnceUpAppliesToBothSides() {
        accept(0);
        assertThrows(IllegalStateException.class, () -> toy.relay.limitFrames(8));
        forwarding();

        toy.relay.limitFrames(8);
        upstream().writeInbound(alloc.heapBuffer().writeInt(9));

        assertFalse(client.isOpen());
        assertEquals(Map.of("frame_too_large", 1L), stats.protocolErrors());
    }

    @Test
    void drainingWaitsForTheProtocolToBeIdleAndTakesNoNewRequestsMeanwhile() {
        accept(0);
        forwarding();
        upstream().writeInbound(frame("hello"));
        received(client);
        client.writeInbound(frame("awaits an answer"));
        received(upstream());

        Drain.request(client);
        loop.runTasks();
        assertInstanceOf(Draining.class, toy.relay.state());
        client.writeInbound(frame("new request"));
        assertEquals(1, toy.unanswered, "no new request is taken while draining");
        assertTrue(client.isOpen());

        upstream().writeInbound(frame("the answer"));

        assertArrayEquals(frames("the answer"), received(client));
        assertFalse(client.isOpen(), "closed once idle");
        assertInstanceOf(Closed.class, toy.relay.state());
        Drain.request(client);
        loop.runTasks();
    }

    @Test
    void drainingAnIdleConnectionClosesItAndARepeatedRequestChangesNothing() {
        accept(0);
        forwarding();
        toy.unanswered = 1;
        Drain.request(client);
        Drain.request(client);
        loop.runTasks();
        assertInstanceOf(Draining.class, toy.relay.state());

        toy.unanswered = 0;
        Drain.request(client);
        loop.runTasks();
        upstream().writeInbound(frame("any"));
        assertFalse(client.isOpen());
    }

    @Test
    void drainingAConnectionWhoseUpstreamIsNotUpClosesItAtOnce() {
        accept(0);
        Drain.request(client);
        loop.runTasks();
        assertFalse(client.isOpen(), "accepted");

        client.finishAndReleaseAll();
        accept(0);
        client.writeInbound(frame("first"));
        assertInstanceOf(Connecting.class, toy.relay.state());
        client.pipeline().fireUserEventTriggered(Drain.REQUEST);
        assertFalse(client.isOpen(), "connecting");
    }

    @Test
    void aClosedConnectionLendsNoMoreFramesAndDropsWhatItIsGiven() {
        accept(0);
        forwarding();
        toy.closeOn = "close";

        client.writeInbound(read("before", "close", "after"));

        assertEquals(List.of("first", "before", "close"), toy.fromClient, "nothing after the close is lent");
        assertArrayEquals(frames("first", "before"), received(upstream()), "what came before the close went out first");
        ByteBuf late = frame("late");
        ByteBuf lateAnswer = frame("late answer");
        toy.relay.toUpstream(late);
        toy.relay.toClient(lateAnswer);
        assertEquals(0, late.refCnt());
        assertEquals(0, lateAnswer.refCnt());
        toy.relay.close();
        toy.relay.fail(new IllegalStateException("after the close"));
        assertEquals(1, toy.closedCalls);
        assertFalse(upstream().isOpen());
        assertEquals(Map.of(), stats.protocolErrors());
    }

    @Test
    void theUpstreamClosingClosesTheClient() {
        accept(0);
        forwarding();
        upstream().close();
        loop.runTasks();

        assertFalse(client.isOpen());
        assertTrue(toy.closed);
    }

    @Test
    void aReasonToStopDecodingKeepsTheFramesTheClientSentUntilItIsLifted() {
        accept(ReadGate.QUOTA);
        forwarding();
        toy.pauseOn = "hold";

        client.writeInbound(read("hold", "kept"));
        assertEquals(List.of("first", "hold"), toy.fromClient);
        assertFalse(client.config().isAutoRead());

        toy.relay.resumeClient(ReadGate.QUOTA);
        assertEquals(List.of("first", "hold"), toy.fromClient, "decoded from a task of its own");
        loop.runTasks();

        assertEquals(List.of("first", "hold", "kept"), toy.fromClient);
        assertTrue(client.config().isAutoRead());
        assertArrayEquals(frames("first", "hold", "kept"), received(upstream()), "and flushed");
    }

    @Test
    void aReasonThatOnlyStopsReadingLeavesTheFramesOfTheReadToBeDecoded() {
        accept(ReadGate.QUOTA);
        forwarding();
        toy.pauseOn = "hold";
        toy.pauseReason = ReadGate.CONNECTION_LIMIT;

        client.writeInbound(read("hold", "decoded"));

        assertEquals(List.of("first", "hold", "decoded"), toy.fromClient);
        assertFalse(client.config().isAutoRead());
        toy.relay.resumeClient(ReadGate.CONNECTION_LIMIT);
        assertTrue(client.config().isAutoRead());
        received(upstream());
    }

    @Test
    void eachSideIsReadOnlyWhileTheOtherCanTakeMore() {
        accept(0);
        forwarding();
        EmbeddedSocketChannel upstream = upstream();

        writable(upstream, false);
        assertFalse(client.config().isAutoRead(), "the upstream cannot take more");
        writable(upstream, true);
        assertTrue(client.config().isAutoRead());

        writable(client, false);
        assertFalse(upstream.config().isAutoRead(), "the client cannot take more");
        writable(client, true);
        assertTrue(upstream.config().isAutoRead());
        received(upstream);
    }

    @Test
    void framesOfOneReadGoOutAsOneWriteAtTheEndOfTheRead() {
        accept(0);
        forwarding();
        received(upstream());

        client.writeInbound(read("one", "two"));
        upstream().writeInbound(read("answer one", "answer two"));

        ByteBuf joined = upstream().readOutbound();
        assertArrayEquals(frames("one", "two"), ByteBufUtil.getBytes(joined));
        joined.release();
        assertNull(upstream().readOutbound());
        assertArrayEquals(frames("answer one", "answer two"), received(client));
        assertEquals(9 + 7 + 7, stats.bytesFromClients(), "frames whole, the first one too");
        assertEquals(14 + 14, stats.bytesToClients(), "lent frames count as they go out");
    }

    @Test
    void aHandshakeNotDoneInTimeClosesTheConnection() {
        accept(0);
        client.writeInbound(frame("first"));
        loop.runTasks();
        advance(HANDSHAKE_MILLIS - 1);
        assertTrue(client.isOpen());

        advance(1);

        assertFalse(client.isOpen());
        assertFalse(upstream().isOpen(), "the upstream closes with it");
        assertEquals(Map.of(HandshakeDeadline.REASON, 1L), stats.protocolErrors());
    }

    @Test
    void theFrontEndEndingItsHandshakeEndsTheDeadline() {
        accept(0);
        forwarding();
        upstream().writeInbound(frame("hello"));
        received(client);

        assertNull(client.pipeline().get(HandshakeDeadline.class));
        assertFalse(loop.hasTimers());
        advance(10 * HANDSHAKE_MILLIS);
        assertTrue(client.isOpen());
        received(upstream());
    }

    @Test
    void aFrontEndMayRefuseAConnectionAsSoonAsItIsOpened() {
        refuseOnOpen = true;
        accept(0);

        assertFalse(client.isOpen());
        assertInstanceOf(Closed.class, toy.relay.state());
        assertEquals(1, stats.acceptedConnections());
    }

    /** Accepts a client whose upstream is dialled in memory at {@code ports}, in turn. */
    private void accept(int stopDecoding, int... ports) {
        accept(
                spec(
                        stopDecoding,
                        new UpstreamDialer(RefusingSocketChannel.class, 1_000, WriteBufferWaterMark.DEFAULT, null)),
                ports);
    }

    private void accept(ConnectionSpec spec, int... ports) {
        client = new EmbeddedSocketChannel();
        EmbeddedSocketChannel.takeBootstrapped();
        client.config().setAllocator(alloc);
        List<Integer> addresses = new ArrayList<>();
        for (int port : ports.length == 0 ? new int[] {UPSTREAM_PORT} : ports) {
            addresses.add(port);
        }
        new ClientPipeline(spec, relay -> toy = new Toy(relay, addresses, refuseOnOpen, connectsItself))
                .assemble(client);
        loop.register(client);
        loop.runTasks();
    }

    private ConnectionSpec spec(int stopDecoding, UpstreamDialer dialer) {
        Framing frames = new Framing(FrameRule.INT32_SIZE, 1024);
        return new ConnectionSpec(
                "Toy",
                "toy connection",
                services,
                null,
                frames,
                frames,
                dialer,
                new Handshake(
                        Duration.ofMillis(HANDSHAKE_MILLIS),
                        "toy handshake",
                        "the client has not completed the TLS handshake",
                        "no frame from the client",
                        "the upstream has not answered"),
                stopDecoding);
    }

    /** Opens the upstream with a frame {@code first} and lets it come up. */
    private void forwarding() {
        client.writeInbound(frame("first"));
        loop.runTasks();
        assertInstanceOf(Forwarding.class, toy.relay.state());
    }

    /** The one upstream channel opened so far. */
    private EmbeddedSocketChannel upstream() {
        upstreams.addAll(EmbeddedSocketChannel.takeBootstrapped());
        assertEquals(1, upstreams.size(), "upstreams opened");
        return upstreams.get(0);
    }

    private void writable(EmbeddedSocketChannel channel, boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
        channel.runPendingTasks();
        loop.runTasks();
    }

    private void advance(long millis) {
        loop.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        loop.runTasks();
    }

    private ByteBuf frame(String body) {
        return read(body);
    }

    /** One read of a frame of each body, one after the other in one buffer. */
    private ByteBuf read(String... bodies) {
        return alloc.heapBuffer().writeBytes(frames(bodies));
    }

    private static byte[] frames(String... bodies) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String body : bodies) {
            byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
            out.writeBytes(new byte[] {0, 0, 0, (byte) bytes.length});
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    /** What {@code channel} wrote, all of it, released. */
    private static byte[] received(EmbeddedSocketChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuf written;
        while ((written = channel.readOutbound()) != null) {
            out.writeBytes(ByteBufUtil.getBytes(written));
            written.release();
        }
        return out.toByteArray();
    }

    /**
     * The toy protocol: its upstream opens at the first frame, declared to the relay at its
     * construction or, when it {@code connectsItself}, opened by the toy, which tries its addresses
     * in turn (or refuses the client when told); forwards every frame each way, and is idle when
     * every frame it forwarded has had an answer.
     */
    private static final class Toy implements ConnectionProtocol {

        final ProxiedConnection relay;
        final List<Integer> ports;
        final boolean refuseOnOpen;
        final boolean connectsItself;
        final List<String> fromClient = new ArrayList<>();
        final List<UpstreamFailure> failures = new ArrayList<>();
        String refuseWith;
        String closeOn;
        String pauseOn;
        int pauseReason = ReadGate.QUOTA;
        int unanswered;
        boolean closed;
        int closedCalls;

        Toy(ProxiedConnection relay, List<Integer> ports, boolean refuseOnOpen, boolean connectsItself) {
            this.relay = relay;
            this.ports = ports;
            this.refuseOnOpen = refuseOnOpen;
            this.connectsItself = connectsItself;
            if (!connectsItself) {
                relay.connectAtFirstFrame(() -> ports.stream()
                        .map(port -> InetSocketAddress.createUnresolved("127.0.0.1", port))
                        .toList());
            }
        }

        @Override
        public void opened() {
            if (refuseOnOpen) {
                relay.close();
            }
        }

        @Override
        public void fromClient(FrameView frame) {
            String body = frame.buffer().toString(frame.index() + 4, frame.length() - 4, StandardCharsets.US_ASCII);
            fromClient.add(body);
            if (body.equals(closeOn)) {
                relay.close();
                return;
            }
            unanswered++;
            if (connectsItself && relay.state() instanceof Accepted) {
                connect(0);
            }
            relay.toUpstream(frame);
            if (body.equals(pauseOn)) {
                relay.pauseClient(pauseReason);
            }
        }

        private void connect(int next) {
            relay.connect("127.0.0.1", ports.get(next), failure -> {
                failures.add(failure);
                if (next + 1 < ports.size()) {
                    connect(next + 1);
                } else if (refuseWith != null) {
                    byte[] bytes = refuseWith.getBytes(StandardCharsets.US_ASCII);
                    relay.toClient(relay.alloc().buffer().writeInt(bytes.length).writeBytes(bytes));
                    relay.close();
                }
            });
        }

        @Override
        public void fromUpstream(FrameView frame) {
            unanswered = Math.max(0, unanswered - 1);
            relay.handshakeCompleted();
            relay.toClient(frame);
        }

        @Override
        public boolean isIdle() {
            return unanswered == 0;
        }

        @Override
        public void closed() {
            closed = true;
            closedCalls++;
        }
    }
}
