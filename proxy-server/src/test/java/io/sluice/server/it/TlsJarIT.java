package io.sluice.server.it;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.ClientSslContexts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.sluice.server.it.TlsIT.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jar as an operator runs it with TLS and the admin token in files, configured through the
 * environment only: an unusable file stops it with exit code 2 and one line naming the option;
 * and whatever passes (credentials in a CONNECT sent in plaintext to the TLS port or over TLS,
 * wrong and rotated admin tokens, a broken key file), its log holds no token, key or credential.
 */
class TlsJarIT {

    private static final String AUTH_DATA = "auth-data-that-must-not-be-logged";
    private static final String FIRST_TOKEN = "first-admin-token-never-logged";
    private static final String ROTATED_TOKEN = "rotated-admin-token-never-logged";
    private static final String WRONG_TOKEN = "wrong-admin-token-never-logged";

    @TempDir
    Path dir;

    @Test
    void anExpiredCertificateStopsTheStartWithExitCodeTwoAndOneLine() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(dir, "jar CA");
        IssuedCertificate expired = ca.issue("expired")
                .hosts("127.0.0.1")
                .validUntil(Instant.now().minusSeconds(60))
                .write();
        ProcessBuilder builder = new ProcessBuilder(SluiceProcess.command(
                "--listen",
                "127.0.0.1:0",
                "--admin",
                "127.0.0.1:0",
                "--limits-file",
                dir.resolve("limits.json").toString()));
        builder.environment().put("SLUICE_UPSTREAM", "pulsar://127.0.0.1:6650");
        builder.environment().put("SLUICE_TLS_CERT", expired.certificate().toString());
        builder.environment().put("SLUICE_TLS_KEY", expired.key().toString());
        Process process = builder.start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        List<String> stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .toList();
        assertEquals(1, stderr.size(), stderr.toString());
        assertTrue(
                stderr.get(0).startsWith("sluice: invalid --tls-cert: " + expired.certificate() + ": the certificate")
                        && stderr.get(0).contains("expired on"),
                stderr.get(0));
    }

    @Test
    void theLogHoldsNoTokenKeyOrCredentialWhateverHappens() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(dir, "jar CA");
        IssuedCertificate server =
                ca.issue("sluice").hosts("localhost", "127.0.0.1").write();
        Path certificate = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        server.copyTo(certificate, key);
        List<String> keyLines = Files.readAllLines(key).stream()
                .filter(l -> !l.startsWith("-----"))
                .toList();
        Path tokenFile = Files.writeString(dir.resolve("admin-token"), FIRST_TOKEN + "\n");
        int[] ports = FreePorts.loopback(2);
        Path log = dir.resolve("sluice.log");
        ProcessBuilder builder = new ProcessBuilder(SluiceProcess.command())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().put("SLUICE_UPSTREAM", "pulsar://127.0.0.1:" + FreePorts.loopback());
        builder.environment().put("SLUICE_LISTEN", "127.0.0.1:" + ports[0]);
        builder.environment().put("SLUICE_ADMIN", "127.0.0.1:" + ports[1]);
        builder.environment()
                .put("SLUICE_LIMITS_FILE", dir.resolve("limits.json").toString());
        builder.environment().put("SLUICE_TLS_CERT", certificate.toString());
        builder.environment().put("SLUICE_TLS_KEY", key.toString());
        builder.environment().put("SLUICE_ADMIN_TOKEN_FILE", tokenFile.toString());
        Process process = builder.start();
        try {
            await(() -> read(log).contains(SluiceProcess.READY_LINE), "the ready line");
            assertTrue(read(log).contains("Pulsar protocol on 127.0.0.1:" + ports[0] + " (TLS,"), read(log));
            assertFalse(ProcessHandle.of(process.pid())
                    .orElseThrow()
                    .info()
                    .commandLine()
                    .orElse("")
                    .contains(FIRST_TOKEN));

            byte[] connect = connectWithCredentials();
            try (RawPulsarClient plaintext = new RawPulsarClient(ports[0])) {
                plaintext.write(connect);
                assertTrue(plaintext.closedByPeer());
            }
            try (SSLSocket tls = (SSLSocket) ClientSslContexts.trusting(ca.certificateFile())
                    .getSocketFactory()
                    .createSocket("127.0.0.1", ports[0])) {
                tls.setSoTimeout(10_000);
                OutputStream out = tls.getOutputStream();
                out.write(connect);
                out.flush();
                while (tls.getInputStream().read() >= 0) {
                    // Sluice answers that it cannot reach the broker, then closes.
                }
            }
            HttpClient https = HttpClient.newBuilder()
                    .sslContext(ClientSslContexts.trusting(ca.certificateFile()))
                    .build();
            assertEquals(401, status(https, ports[1], WRONG_TOKEN));
            assertEquals(200, status(https, ports[1], FIRST_TOKEN));
            Files.writeString(tokenFile, ROTATED_TOKEN);
            await(() -> status(https, ports[1], ROTATED_TOKEN) == 200, "the rotated token in force");
            Files.writeString(
                    key,
                    Files.readString(key)
                            .replace(keyLines.get(0), keyLines.get(0).substring(8)));
            await(() -> read(log).contains("keeping the current files in use"), "the broken key reported");
        } finally {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        String text = read(log);
        for (String secret : List.of(
                AUTH_DATA,
                HexFormat.of().formatHex(AUTH_DATA.getBytes(StandardCharsets.UTF_8)),
                FIRST_TOKEN,
                ROTATED_TOKEN,
                WRONG_TOKEN)) {
            assertFalse(text.contains(secret), "the log holds " + secret + ":\n" + text);
        }
        for (String line : keyLines) {
            assertFalse(
                    text.contains(line.substring(8, Math.min(line.length(), 40))),
                    "the log holds key material:\n" + text);
        }
    }

    /** A CONNECT carrying token credentials, as a client of a broker with authentication sends it. */
    private static byte[] connectWithCredentials() {
        ByteBuf frame = FrameWriter.encode(
                ByteBufAllocator.DEFAULT,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.CONNECT)
                        .setConnect(CommandConnect.newBuilder()
                                .setClientVersion("tls-jar-it")
                                .setProtocolVersion(21)
                                .setAuthMethodName("token")
                                .setAuthData(ByteString.copyFromUtf8(AUTH_DATA)))
                        .build());
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    private static int status(HttpClient client, int port, String token) {
        try {
            return client.send(
                            HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/api/v1/limits"))
                                    .header("Authorization", "Bearer " + token)
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .statusCode();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
