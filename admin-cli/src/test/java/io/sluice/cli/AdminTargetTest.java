package io.sluice.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdminTargetTest {

    @TempDir
    Path dir;

    private static AdminClient client(AdminTarget target, Map<String, String> env) {
        return target.client(new Invocation(
                env,
                InputStream.nullInputStream(),
                new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()),
                Clock.systemUTC()));
    }

    @Test
    void theUrlComesFromTheFlagThenSluiceUrlThenTheServersAdminAddress() {
        AdminTarget target = new AdminTarget();
        assertEquals("http://127.0.0.1:8080", client(target, Map.of()).base().toString());
        assertEquals(
                "http://127.0.0.1:8081",
                client(target, Map.of("SLUICE_ADMIN", "0.0.0.0:8081")).base().toString());
        assertEquals(
                "http://[::1]:9090",
                client(target, Map.of("SLUICE_ADMIN", "[::1]:9090")).base().toString());
        assertEquals(
                "http://sluice:8080",
                client(target, Map.of("SLUICE_ADMIN", "0.0.0.0:8081", "SLUICE_URL", "http://sluice:8080/"))
                        .base()
                        .toString());
        target.url = "https://sluice.example:443";
        assertEquals(
                "https://sluice.example:443",
                client(target, Map.of("SLUICE_URL", "http://other:1")).base().toString());
    }

    @Test
    void besideAServerWithACertificateTheUrlIsHttpsAndTheTokenIsTheServersFile() throws Exception {
        Path token = Files.writeString(dir.resolve("admin-token"), "from-the-servers-file\n");
        Map<String, String> container = Map.of(
                "SLUICE_ADMIN",
                "0.0.0.0:8081",
                "SLUICE_TLS_CERT",
                "/etc/sluice/tls/tls.crt",
                "SLUICE_ADMIN_TOKEN_FILE",
                token.toString(),
                "SLUICE_ADMIN_TOKEN",
                "ignored");
        AdminTarget target = new AdminTarget();
        // Building the client reads SLUICE_TLS_CERT, absent here: the https URL is what counts.
        CliFailure noCertificate = assertThrows(CliFailure.class, () -> client(target, container));
        assertTrue(noCertificate.getMessage().contains("SLUICE_TLS_CERT"), noCertificate.getMessage());
        Map<String, String> plain = Map.of("SLUICE_ADMIN", "0.0.0.0:8081", "SLUICE_ADMIN_TOKEN_FILE", token.toString());
        assertEquals("http://127.0.0.1:8081", client(target, plain).base().toString());
        Path empty = Files.writeString(dir.resolve("empty"), "");
        CliFailure emptyToken = assertThrows(
                CliFailure.class, () -> client(target, Map.of("SLUICE_ADMIN_TOKEN_FILE", empty.toString())));
        assertTrue(emptyToken.getMessage().contains("(SLUICE_ADMIN_TOKEN_FILE) is empty"), emptyToken.getMessage());
    }

    @Test
    void aUrlThatIsNotHttpIsAUsageError() {
        AdminTarget target = new AdminTarget();
        target.url = "pulsar://broker:6650";
        CliFailure failure = assertThrows(CliFailure.class, () -> client(target, Map.of()));
        assertEquals(AdminCli.USAGE, failure.exitCode());
        assertTrue(failure.getMessage().startsWith("invalid --url 'pulsar://broker:6650'"), failure.getMessage());
    }

    @Test
    void anEmptyTokenFileIsAUsageError() throws Exception {
        Path empty = Files.writeString(dir.resolve("token"), "\n");
        AdminTarget target = new AdminTarget();
        CliFailure failure =
                assertThrows(CliFailure.class, () -> client(target, Map.of("SLUICE_TOKEN_FILE", empty.toString())));
        assertEquals(AdminCli.USAGE, failure.exitCode());
        assertTrue(failure.getMessage().contains("(SLUICE_TOKEN_FILE) is empty"), failure.getMessage());
    }
}
