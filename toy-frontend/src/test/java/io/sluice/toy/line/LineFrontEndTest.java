package io.sluice.toy.line;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import io.sluice.cli.AdminCli;
import io.sluice.server.SluiceMain;
import io.sluice.server.SluiceServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A third front end in the real server: registered by one line in {@code META-INF/services}, its
 * scope served by the admin API and the CLI with no edit there, its limits enforced on the relay's
 * skeleton between a real client socket and an upstream.
 */
class LineFrontEndTest {

    @TempDir
    static Path dir;

    private static LineUpstream upstream;
    private static SluiceServer sluice;

    @BeforeAll
    static void start() throws Exception {
        upstream = new LineUpstream();
        sluice = SluiceServer.start(SluiceMain.parse(
                new String[] {
                    "--line-upstream",
                    "127.0.0.1:" + upstream.port(),
                    "--line-listen",
                    "127.0.0.1:0",
                    "--admin",
                    "127.0.0.1:0",
                    "--limits-file",
                    dir.resolve("limits.json").toString(),
                    "--proxy-protocol",
                    "optional"
                },
                Map.of(),
                new PrintStream(new ByteArrayOutputStream())));
    }

    @AfterAll
    static void stop() throws IOException {
        sluice.close();
        upstream.close();
    }

    @Test
    void theAdminApiServesTheLineTopicScopeItWasNeverToldAbout() throws Exception {
        HttpResponse<String> scopes = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(admin() + "/api/v1/scopes"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, scopes.statusCode());
        assertTrue(scopes.body().contains("\"/api/v1/limits/line/topics/{topic}\""), scopes.body());
        assertTrue(scopes.body().contains("\"line-topic\""), scopes.body());
    }

    @Test
    void aLineOverItsTopicsRejectLimitIsRefusedBySluiceAndNeverReachesTheUpstream() throws Exception {
        cli("limits", "set", "line-topic", "refused", "--publish-rate", "5", "--burst", "1", "--on-exceed", "reject");
        List<String> answers = publish("refused", 40);
        long ok = answers.stream().filter(answer -> answer.startsWith("OK ")).count();
        long refused = answers.stream()
                .filter(answer -> answer.contains(" sluice: topic refused is over its publish limit"))
                .count();
        assertEquals(40, ok + refused, "one answer per line: " + answers);
        assertTrue(ok >= 5 && ok <= 12, ok + " of 40 lines passed a 5/s limit with 1 s of burst");
        assertEquals(ok, upstream.received("refused"), "the upstream saw exactly the lines answered OK");
        assertEquals(
                40,
                publish("free", 40).stream().filter(a -> a.startsWith("OK ")).count(),
                "another topic is free");
    }

    @Test
    void aLineOverItsTopicsDelayLimitWaitsAndArrives() throws Exception {
        cli("limits", "set", "line-topic", "delayed", "--publish-rate", "20", "--burst", "0.5");
        long started = System.nanoTime();
        List<String> answers = publish("delayed", 40);
        double seconds = (System.nanoTime() - started) / 1e9;
        assertEquals(40, answers.stream().filter(a -> a.startsWith("OK ")).count(), "every line arrives: " + answers);
        assertEquals(40, upstream.received("delayed"));
        assertTrue(seconds >= 1.2, "40 lines at 20/s with 10 of burst took only " + seconds + " s");
    }

    @Test
    void aHeldLinesClientIsListedAsThrottledWhileItWaits() throws Exception {
        cli("limits", "set", "line-topic", "watched", "--publish-rate", "10", "--burst", "0.5");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), sluice.port(LineScopes.PROTOCOL))) {
            socket.setSoTimeout(10_000);
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                lines.append("PUB ")
                        .append(i)
                        .append(" watched payload-")
                        .append(i)
                        .append('\n');
            }
            socket.getOutputStream().write(lines.toString().getBytes(StandardCharsets.UTF_8));
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            for (int i = 0; i < 5; i++) {
                in.readLine();
            }
            String during = get("/api/v1/throttled");
            assertTrue(during.contains("\"watched\"") && during.contains("\"delay\""), during);
            for (int i = 5; i < 20; i++) {
                assertTrue(in.readLine().startsWith("OK "));
            }
        }
        String after = get("/api/v1/throttled");
        for (long deadline = System.nanoTime() + 2_000_000_000L;
                after.contains("\"watched\"") && System.nanoTime() < deadline; ) {
            Thread.sleep(20);
            after = get("/api/v1/throttled");
        }
        assertFalse(after.contains("\"watched\""), "the throttle ends once the buckets recovered: " + after);
    }

    @Test
    void aLineClientBehindALoadBalancerGetsThePROXYProtocolByDoingNothing() throws Exception {
        byte[] v1 = "PROXY TCP4 203.0.113.7 127.0.0.1 51000 7000\r\n".getBytes(StandardCharsets.US_ASCII);
        EmbeddedChannel encoder = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
        encoder.writeOutbound(new HAProxyMessage(
                HAProxyProtocolVersion.V2,
                HAProxyCommand.PROXY,
                HAProxyProxiedProtocol.TCP4,
                "198.51.100.1",
                "127.0.0.1",
                51001,
                7000));
        ByteBuf encoded = encoder.readOutbound();
        byte[] v2 = ByteBufUtil.getBytes(encoded);
        encoded.release();
        encoder.finishAndReleaseAll();
        for (byte[] header : List.of(v1, v2)) {
            List<String> answers = publish("proxied", 5, header);
            assertEquals(
                    5,
                    answers.stream()
                            .filter(a -> a != null && a.startsWith("OK "))
                            .count(),
                    answers.toString());
        }
        assertEquals(10, upstream.received("proxied"));
    }

    private static List<String> publish(String topic, int count) throws IOException {
        return publish(topic, count, new byte[0]);
    }

    /**
     * Sends {@code header}, then {@code count} PUB lines for {@code topic} at once on a fresh
     * connection, and reads an answer to each.
     */
    private static List<String> publish(String topic, int count, byte[] header) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), sluice.port(LineScopes.PROTOCOL))) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(header);
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < count; i++) {
                lines.append("PUB ")
                        .append(i)
                        .append(' ')
                        .append(topic)
                        .append(" payload-")
                        .append(i)
                        .append('\n');
            }
            socket.getOutputStream().write(lines.toString().getBytes(StandardCharsets.UTF_8));
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            List<String> answers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                answers.add(in.readLine());
            }
            return answers;
        }
    }

    private static void cli(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = AdminCli.run(
                args,
                Map.of("SLUICE_URL", admin()),
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC());
        assertEquals(AdminCli.OK, exit, String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8));
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(admin() + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private static String admin() {
        return "http://127.0.0.1:" + sluice.adminPort();
    }
}
