package io.sluice.admin.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.flow.FlowControlHandler;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.LeakCheck;
import io.sluice.testing.ManualEventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RequestTurns} behind Netty's HTTP codec, in front of the admin aggregator, with the route
 * handlers replaced by one the test answers for, on an in-memory socket whose timers follow a
 * manual clock.
 */
@ExtendWith(LeakCheck.class)
class RequestTurnsTest {

    private static final long TIMEOUT_MILLIS = 5_000;
    private static final byte[] REQUEST =
            "GET /healthz HTTP/1.1\r\nHost: sluice\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ManualEventLoop loop = new ManualEventLoop();
    private final HeldRequests handlers = new HeldRequests();
    private EmbeddedSocketChannel channel;

    @BeforeEach
    void accept() {
        channel = new EmbeddedSocketChannel();
        channel.config().setAutoRead(false);
        EmbeddedSocketChannel.takeBootstrapped(); // forget the channel itself
        channel.pipeline()
                .addLast(
                        new HttpServerCodec(),
                        new FlowControlHandler(),
                        new RequestTurns(Duration.ofMillis(TIMEOUT_MILLIS)),
                        new BodySizeLimit(1024),
                        handlers);
        loop.register(channel);
        loop.runTasks();
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
        loop.runTasks();
        assertFalse(loop.hasTimers(), "a timer outlived its connection");
    }

    @Test
    void aConnectionThatSendsNothingIsClosedAtTheTimeout() {
        advance(TIMEOUT_MILLIS - 1);
        assertTrue(channel.isOpen(), "closed before the timeout");

        advance(1);

        assertFalse(channel.isOpen());
    }

    @Test
    void aRequestDribbledAByteAtATimeIsCutOffThoughItsBytesKeepComing() {
        long gap = TIMEOUT_MILLIS / 10;
        for (int i = 0; i < 10; i++) {
            assertTrue(channel.isOpen(), "closed after " + i * gap + " ms");
            send(REQUEST, i, 1);
            advance(gap);
        }

        assertFalse(channel.isOpen(), "a byte every " + gap + " ms kept the connection open");
        assertEquals(0, handlers.received);
    }

    @Test
    void theClockStopsWhileARequestIsAnsweredAndRestartsAtTheAnswer() {
        send(REQUEST, 0, REQUEST.length);
        advance(10 * TIMEOUT_MILLIS);
        assertTrue(channel.isOpen(), "closed while the request was being answered");

        answer();
        advance(TIMEOUT_MILLIS - 1);
        assertTrue(channel.isOpen(), "closed before the timeout after the answer");
        advance(1);

        assertFalse(channel.isOpen());
    }

    @Test
    void aKeepAliveConnectionHasTheWholeTimeoutForEachRequest() {
        for (int i = 0; i < 3; i++) {
            advance(TIMEOUT_MILLIS - 1);
            send(REQUEST, 0, REQUEST.length);
            answer();
        }
        assertTrue(channel.isOpen());
        assertEquals(3, handlers.received);

        advance(TIMEOUT_MILLIS);

        assertFalse(channel.isOpen());
    }

    @Test
    void aPipelinedRequestIsNotReadUntilTheAnswerBeforeItIsWritten() {
        byte[] three = new byte[3 * REQUEST.length];
        for (int i = 0; i < 3; i++) {
            System.arraycopy(REQUEST, 0, three, i * REQUEST.length, REQUEST.length);
        }
        send(three, 0, three.length);
        assertEquals(1, handlers.received, "read past a request whose answer is owed");

        advance(10 * TIMEOUT_MILLIS);
        assertTrue(channel.isOpen(), "closed with a request still unanswered");
        answer();
        assertEquals(2, handlers.received);
        answer();
        assertEquals(3, handlers.received);
        answer();
        advance(TIMEOUT_MILLIS);

        assertFalse(channel.isOpen());
    }

    /** Answers the request held and lets the connection read on. */
    private void answer() {
        handlers.answer();
        loop.runTasks();
    }

    private void send(byte[] bytes, int from, int length) {
        channel.writeInbound(Unpooled.wrappedBuffer(bytes, from, length));
        loop.runTasks();
    }

    private void advance(long millis) {
        loop.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        loop.runTasks();
    }

    /** Stands in for the route handlers: counts requests and answers them when the test says. */
    private static final class HeldRequests extends SimpleChannelInboundHandler<FullHttpRequest> {

        private ChannelHandlerContext ctx;
        int received;

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            received++;
        }

        void answer() {
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        }
    }
}
