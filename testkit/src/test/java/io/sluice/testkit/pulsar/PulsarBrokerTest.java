package io.sluice.testkit.pulsar;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.testkit.process.PidFile;
import org.apache.pulsar.common.api.proto.BaseCommand;
import org.apache.pulsar.common.api.proto.CommandLookupTopicResponse;
import org.apache.pulsar.common.protocol.Commands;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One broker through its whole life: ready, lookups per listener, data kept across a restart,
 * freeze, kill, and nothing left after close. Pulsar's common classes (pulsar-common, test scope)
 * let it speak the binary protocol with Pulsar's own {@link Commands}.
 */
class PulsarBrokerTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void lifecycle() throws Exception {
        long startNanos = System.nanoTime();
        PulsarBroker broker = PulsarBroker.builder().sidecarListener().start();
        long pid = broker.pid();
        try {
            System.out.printf("broker started in %.1f s: %s%n", (System.nanoTime() - startNanos) / 1e9, broker);
            assertTrue(get(broker, "/admin/v2/namespaces/public").contains("\"public/default\""));
            assertTrue(Files.exists(PidFile.directory().resolve(pid + ".pid")));

            // The sidecar deployment: lookups on B name B, lookups on E name the sidecar's S.
            assertEquals(
                    "pulsar://127.0.0.1:" + broker.brokerPort(),
                    lookup(broker.brokerPort()).getBrokerServiceUrl());
            assertEquals(
                    "pulsar://127.0.0.1:" + broker.sidecarPort(),
                    lookup(broker.externalBindPort()).getBrokerServiceUrl());

            HttpResponse<String> created = HTTP.send(
                    request(broker, "/admin/v2/namespaces/public/keepme")
                            .PUT(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(204, created.statusCode(), created.body());

            long restartNanos = System.nanoTime();
            broker.restart();
            System.out.printf("broker stopped and started again in %.1f s%n", (System.nanoTime() - restartNanos) / 1e9);
            assertNotEquals(pid, broker.pid());
            assertFalse(Files.exists(PidFile.directory().resolve(pid + ".pid")));
            pid = broker.pid();
            assertTrue(get(broker, "/admin/v2/namespaces/public").contains("\"public/keepme\""));

            broker.freeze();
            assertThrows(HttpTimeoutException.class, () -> get(broker, "/admin/v2/namespaces/public"));
            broker.unfreeze();
            assertTrue(get(broker, "/admin/v2/namespaces/public").contains("\"public/keepme\""));

            broker.kill();
            assertFalse(broker.isRunning());
        } finally {
            long closeNanos = System.nanoTime();
            broker.close();
            System.out.printf("broker closed in %.1f s%n", (System.nanoTime() - closeNanos) / 1e9);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "broker JVM still alive");
        assertFalse(Files.exists(broker.dataDir()), "data directory left behind");
        assertFalse(Files.exists(PidFile.directory().resolve(pid + ".pid")), "PID file left behind");
    }

    private static HttpRequest.Builder request(PulsarBroker broker, String path) {
        return HttpRequest.newBuilder(URI.create(broker.webUrl() + path)).timeout(Duration.ofSeconds(2));
    }

    private static String get(PulsarBroker broker, String path) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(request(broker, path).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    /** Sends CONNECT and LOOKUP on a fresh connection to the port and returns the broker's answer. */
    private static CommandLookupTopicResponse lookup(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            write(socket.getOutputStream(), Commands.newConnect("none", "", "sluice-test"));
            assertEquals(BaseCommand.Type.CONNECTED, read(in).getType());
            write(socket.getOutputStream(), Commands.newLookup("persistent://public/default/lookup", false, 1));
            BaseCommand answer = read(in);
            assertEquals(BaseCommand.Type.LOOKUP_RESPONSE, answer.getType());
            assertEquals(
                    CommandLookupTopicResponse.LookupType.Connect,
                    answer.getLookupTopicResponse().getResponse());
            return answer.getLookupTopicResponse();
        }
    }

    private static void write(OutputStream out, ByteBuf frame) throws IOException {
        try {
            frame.readBytes(out, frame.readableBytes());
            out.flush();
        } finally {
            frame.release();
        }
    }

    private static BaseCommand read(DataInputStream in) throws IOException {
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        ByteBuf buf = Unpooled.wrappedBuffer(frame);
        BaseCommand command = new BaseCommand();
        command.parseFrom(buf, buf.readInt());
        return command;
    }
}
