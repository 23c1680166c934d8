package io.sluice.admin;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.sluice.admin.audit.AuditTrail;
import io.sluice.admin.http.RouteTable;
import io.sluice.admin.http.Router;
import io.sluice.cluster.ClusterStatus;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsStore;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.ProxyStats;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.EmbeddedSocketChannel;
import io.sluice.testing.FuzzCorpus;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fuzzed HTTP requests through the admin server's own pipeline ({@link AdminChannelInitializer},
 * in memory, route handlers run inline) over a real limits store: every answer is below 500 (the
 * only documented 500 is a limits file that cannot be written, which does not happen here), and
 * a request answered 4xx leaves the limits and the file as they were. No buffer leaks.
 *
 * <p>An input whose first byte is odd is read as choices for a well-formed request (method, a
 * known path with fuzzed segments, content type, token, body); otherwise the rest is sent as raw
 * bytes. Seeds: {@code AdminRequestFuzzTestInputs/request}.
 */
@ExtendWith(LeakCheck.class)
class AdminRequestFuzzTest {

    private static final String[] METHODS = {"GET", "PUT", "DELETE", "POST", "PATCH", "HEAD", "OPTIONS"};
    private static final String[] PATHS = {
        "/api/v1/limits",
        "/api/v1/limits/topics/persistent/public/default/",
        "/api/v1/limits/topics/",
        "/api/v1/limits/namespaces/public/",
        "/api/v1/limits/tenants/",
        "/api/v1/limits/proxy",
        "/api/v1/limits/connection",
        "/api/v1/throttled",
        "/api/v1/topics",
        "/api/v1/admission",
        "/api/v1/openapi.json",
        "/healthz",
        "/readyz",
        "/metrics",
        "/",
    };
    private static final String[] CONTENT_TYPES = {
        "application/json", "application/json; charset=utf-8", "text/plain", ""
    };
    private static final int GENERATED_INPUTS = 1_500;
    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] (\\d{3}) ");

    private static Path dir;
    private static LimitsStore store;
    private static RouteTable routes;
    private static Router router;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("admin-fuzz");
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM);
        store = LimitsStore.open(dir.resolve("limits.json"), AdminFixture.SCOPES, engine::update);
        routes = AdminRoutes.table(
                store,
                new ThrottleLedger(Clock.systemUTC()),
                new TopicActivity(Duration.ofMinutes(1)),
                List.of(new ProxyStats("pulsar")),
                () -> 0,
                null,
                () -> true,
                1000,
                100,
                ClusterStatus::standalone,
                List::of,
                null,
                null,
                new AuditTrail(Clock.systemUTC(), ClusterStatus::standalone));
        router = new Router(routes, Runnable::run);
    }

    @AfterAll
    static void stop() throws Exception {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    @FuzzTest(maxDuration = "10m")
    void request(byte[] input) throws Exception {
        if (input.length == 0) {
            return;
        }
        byte[] request =
                (input[0] & 1) == 1 ? wellFormed(new Choices(input)) : Arrays.copyOfRange(input, 1, input.length);
        LimitsDocument before = store.current();
        byte[] fileBefore = Files.readAllBytes(store.file());

        EmbeddedSocketChannel channel = new EmbeddedSocketChannel(new AdminChannelInitializer(
                new DefaultChannelGroup(GlobalEventExecutor.INSTANCE),
                AdminServer.MAX_BODY_BYTES,
                AdminServer.DEFAULT_IDLE_TIMEOUT,
                AdminServer.DEFAULT_MAX_CONNECTIONS,
                null,
                null,
                routes,
                router,
                null));
        channel.writeInbound(Unpooled.wrappedBuffer(request));
        channel.runPendingTasks();
        String answers = drain(channel);
        channel.finishAndReleaseAll();

        Matcher status = STATUS_LINE.matcher(answers);
        boolean rejected = false;
        while (status.find()) {
            int code = Integer.parseInt(status.group(1));
            assertTrue(code < 500, "answered " + code + ": " + answers);
            rejected |= code >= 400;
        }
        if (rejected && !answers.contains("HTTP/1.1 2") && !answers.contains("HTTP/1.0 2")) {
            assertEquals(before, store.current(), "a rejected request changed the limits");
            assertArrayEquals(fileBefore, Files.readAllBytes(store.file()), "a rejected request changed the file");
        }
        if (!store.current().equals(LimitsDocument.empty())) {
            store.replace(LimitsDocument.empty());
        }
    }

    @Test
    void generatedInputs() throws Exception {
        ByteMutator mutator = new ByteMutator(7_2024L, FuzzCorpus.of(AdminRequestFuzzTest.class, "request"));
        for (int i = 0; i < GENERATED_INPUTS; i++) {
            byte[] input = mutator.next();
            try {
                request(input);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("input " + HexFormat.of().formatHex(input), e);
            }
        }
    }

    /** A request line, headers and body the input chose, framed correctly. */
    private static byte[] wellFormed(Choices data) {
        String method = data.pick(METHODS);
        String path = data.pick(PATHS) + data.text().replaceAll("\\s", "");
        String contentType = data.pick(CONTENT_TYPES);
        boolean withToken = "token".equals(data.pick(new String[] {"", "token"}));
        byte[] body = data.rest();
        StringBuilder head = new StringBuilder()
                .append(method)
                .append(' ')
                .append(path.isEmpty() ? "/" : path)
                .append(" HTTP/1.1\r\n")
                .append("Host: sluice\r\nConnection: close\r\n");
        if (!contentType.isEmpty()) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        if (withToken) {
            head.append("Authorization: Bearer x\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        out.writeBytes(body);
        return out.toByteArray();
    }

    /** Everything the server wrote, as text (headers are ASCII), every buffer released. */
    private static String drain(EmbeddedSocketChannel channel) {
        StringBuilder text = new StringBuilder();
        Object out;
        while ((out = channel.readOutbound()) != null) {
            if (out instanceof ByteBuf buf) {
                text.append(buf.toString(StandardCharsets.ISO_8859_1));
            }
            io.netty.util.ReferenceCountUtil.release(out);
        }
        return text.toString();
    }

    /** Reads an input as a series of choices: one byte per pick, a length byte before a text. */
    private static final class Choices {
        private final byte[] input;
        private int at = 1;

        Choices(byte[] input) {
            this.input = input;
        }

        String pick(String[] options) {
            return options[(at < input.length ? input[at++] & 0xff : 0) % options.length];
        }

        String text() {
            int length = Math.min(at < input.length ? input[at++] & 0x3f : 0, input.length - at);
            String text = new String(input, at, length, StandardCharsets.ISO_8859_1);
            at += length;
            return text;
        }

        byte[] rest() {
            return Arrays.copyOfRange(input, Math.min(at, input.length), input.length);
        }
    }
}
