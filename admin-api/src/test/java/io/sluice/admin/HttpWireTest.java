package io.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HTTP behaviour a stock client does not exercise, checked on a raw socket. */
@ExtendWith(LeakCheck.class)
class HttpWireTest {

    @TempDir
    Path dir;

    private AdminFixture admin;
    private Socket socket;

    @BeforeEach
    void start() throws IOException {
        admin = AdminFixture.start(dir.resolve("state"));
        socket = new Socket("127.0.0.1", admin.server.port());
        socket.setSoTimeout(10_000);
    }

    @AfterEach
    void stop() throws IOException {
        socket.close();
        admin.close();
    }

    /** A response read off the wire. */
    record Reply(int status, Map<String, String> headers, String body) {
        JsonNode json() throws IOException {
            return AdminFixture.JSON.readTree(body);
        }
    }

    @Test
    void anUnreadableRequestIs400AndClosesTheConnection() throws IOException {
        send("GARBAGE\u0001 / HTTP/1.1\r\n\r\n");

        Reply reply = read();
        assertEquals(400, reply.status());
        assertTrue(reply.json().get("error").asText().startsWith("malformed HTTP request"), reply.body());
        assertEquals(-1, socket.getInputStream().read(), "the connection stays open");
    }

    @Test
    void aBadPercentEscapeIs400() throws IOException {
        send("GET /api/v1/limits/tenants/%zz HTTP/1.1\r\nHost: x\r\n\r\n");

        Reply reply = read();
        assertEquals(400, reply.status());
        assertEquals(
                "path: bad percent-escape in segment %zz",
                reply.json().get("error").asText());
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws IOException {
        String limit = "{\"publish\": {\"messagesPerSecond\": 5}}";
        send("PUT /api/v1/limits/tenants/t1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + limit.length() + "\r\n\r\n" + limit
                + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api/v1/limits/tenants/t1 HTTP/1.1\r\nHost: x\r\n\r\n");

        Reply put = read();
        Reply health = read();
        Reply get = read();
        assertEquals(200, put.status(), put.body());
        assertEquals("serving", health.json().get("status").asText());
        assertEquals(200, get.status());
        assertEquals(5, get.json().get("publish").get("messagesPerSecond").asDouble());
    }

    @Test
    void anOversizedBodyAnnouncedWithExpectContinueIsRefusedBeforeItIsSent() throws IOException {
        send("PUT /api/v1/limits HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                + "Content-Length: " + (AdminServer.MAX_BODY_BYTES + 1) + "\r\n\r\n");

        Reply reply = read();
        assertEquals(413, reply.status());
        assertEquals(
                "body: must be at most 1048576 bytes", reply.json().get("error").asText());
    }

    @Test
    void http10WithoutKeepAliveIsAnsweredAndClosed() throws IOException {
        send("GET /healthz HTTP/1.0\r\n\r\n");

        assertEquals(200, read().status());
        assertEquals(-1, socket.getInputStream().read());
    }

    @Test
    void aLimitsFileThatCannotBeWrittenIs500AndChangesNothing() throws IOException {
        Path state = dir.resolve("state");
        var before = admin.engine.limits();
        try (var files = Files.list(state)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(state);
        Files.writeString(state, "a file where the limits directory was");

        HttpResponse<String> response = admin.put("/api/v1/limits/proxy", "{\"publish\": {\"messagesPerSecond\": 5}}");

        assertEquals(500, response.statusCode());
        assertTrue(AdminFixture.error(response).startsWith("could not complete the request"), response.body());
        assertEquals(before, admin.engine.limits());
    }

    private void send(String request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private Reply read() throws IOException {
        InputStream in = socket.getInputStream();
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            headers.put(
                    header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    header.substring(colon + 1).trim());
        }
        byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
        return new Reply(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed mid-response");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
