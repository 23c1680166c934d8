package io.sluice.admin;

import io.sluice.admin.http.AdminToken;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsStore;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.relay.ProxyStats;
import io.sluice.relay.tls.ReloadingSslContext;
import io.sluice.relay.tls.ServerTlsFiles;
import io.sluice.status.ThrottleLedger;
import io.sluice.status.TopicActivity;
import io.sluice.testing.LeakCheck;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import io.sluice.testkit.tls.ClientSslContexts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin API over HTTPS with the token from a file: probes and metrics answer over TLS, plain
 * HTTP on the port is closed without disturbing anything, a renewed certificate is presented to
 * new connections, and a rotated token file changes which token opens {@code /api/v1} (an empty
 * one changes nothing).
 */
@ExtendWith(LeakCheck.class)
class AdminHttpsTest {

    @TempDir
    Path dir;

    private final ProxyStats stats = new ProxyStats("pulsar");
    private CertificateAuthority ca;
    private IssuedCertificate first;
    private Path certificate;
    private Path key;
    private Path tokenFile;
    private ReloadingSslContext tls;
    private AdminToken token;
    private AdminServer server;

    @BeforeEach
    void start() throws IOException {
        ca = CertificateAuthority.create(dir, "admin CA");
        first = ca.issue("admin").hosts("localhost").write();
        certificate = dir.resolve("tls.crt");
        key = dir.resolve("tls.key");
        first.copyTo(certificate, key);
        tokenFile = Files.writeString(dir.resolve("admin-token"), "first-token\n");
        tls = ReloadingSslContext.load(
                "the admin port", new ServerTlsFiles(certificate, key, null), stats::tlsReloadFailed);
        token = AdminToken.fromFile(tokenFile);
        QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM);
        server = AdminServer.builder()
                .bind("127.0.0.1", 0)
                .adminToken(token)
                .tls(tls)
                .limits(LimitsStore.open(dir.resolve("limits.json"), AdminFixture.SCOPES, engine::update))
                .throttleLedger(new ThrottleLedger(Clock.systemUTC()))
                .topicActivity(new TopicActivity(Duration.ofMinutes(10)))
                .proxyStats(stats)
                .ready(() -> true)
                .build();
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void probesAndMetricsAnswerOverTlsAndPlainHttpIsClosedWithoutHarm() throws Exception {
        assertEquals(200, get(client(), "/healthz", null).statusCode());
        assertTrue(get(client(), "/metrics", null).body().contains("sluice_tls_reload_failures_total 0.0"));
        HttpClient plain =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        assertThrows(
                IOException.class,
                () -> plain.send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/healthz"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
        assertEquals(200, get(client(), "/healthz", null).statusCode());
    }

    @Test
    void aRenewedCertificateIsPresentedToNewConnections() throws Exception {
        assertEquals(first.x509().getSerialNumber(), serial(get(client(), "/healthz", null)));
        IssuedCertificate renewed = ca.issue("renewed admin").hosts("localhost").write();
        renewed.copyTo(certificate, key);
        assertTrue(tls.reload());
        assertEquals(renewed.x509().getSerialNumber(), serial(get(client(), "/healthz", null)));
    }

    @Test
    void aRotatedTokenFileDecidesWhichTokenOpensTheApi() throws Exception {
        HttpClient client = client();
        assertEquals(200, get(client, "/api/v1/limits", "first-token").statusCode());
        assertEquals(401, get(client, "/api/v1/limits", "second-token").statusCode());
        Files.writeString(tokenFile, "second-token");
        assertTrue(token.reload());
        assertEquals(200, get(client, "/api/v1/limits", "second-token").statusCode());
        assertEquals(401, get(client, "/api/v1/limits", "first-token").statusCode());
        Files.writeString(tokenFile, "  \n");
        assertFalse(token.reload(), "an empty file is no token");
        Files.delete(tokenFile);
        assertFalse(token.reload(), "nor is a missing one");
        assertEquals(200, get(client, "/api/v1/limits", "second-token").statusCode());
    }

    private HttpClient client() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(ClientSslContexts.trusting(ca.certificateFile()))
                .build();
    }

    private HttpResponse<String> get(HttpClient client, String path, String bearer) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + path))
                .timeout(Duration.ofSeconds(10));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static BigInteger serial(HttpResponse<?> response) throws Exception {
        return ((X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0]).getSerialNumber();
    }
}
