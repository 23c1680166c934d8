package io.sluice.admin.http;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The router when its handler threads' queue is full: API requests 503 at once, probes answered. */
@ExtendWith(LeakCheck.class)
class RouterBusyTest {

    private final RouteTable routes = RouteTable.builder()
            .add(HttpMethod.GET, "/api/v1/limits", request -> ApiResponse.noContent())
            .probe(
                    "/healthz",
                    request -> ApiResponse.json(HttpResponseStatus.OK, java.util.Map.of("status", "serving")))
            .build();
    private final EmbeddedChannel channel = new EmbeddedChannel(new Router(routes, task -> {
        throw new RejectedExecutionException("queue full");
    }));

    @Test
    void anApiRequestPastTheQueueIs503AtOnceWhileAProbeIsAnsweredOnTheLoop() {
        FullHttpResponse busy = ask("/api/v1/limits");
        assertEquals(HttpResponseStatus.SERVICE_UNAVAILABLE, busy.status());
        assertEquals("1", busy.headers().get("Retry-After"));
        assertTrue(busy.content().toString(StandardCharsets.UTF_8).contains("Sluice's admin API is busy"));
        busy.release();

        FullHttpResponse probe = ask("/healthz");
        assertEquals(HttpResponseStatus.OK, probe.status());
        probe.release();
        channel.finishAndReleaseAll();
    }

    private FullHttpResponse ask(String path) {
        channel.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path));
        return channel.readOutbound();
    }
}
