package io.sluice.server.it;

import io.sluice.limits.ScopeRef;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.sluice.SluiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code bin/sluice} and {@code java -jar sluice.jar} run the admin commands as an operator types
 * them: sluice.jar's main hands {@code limits|throttled|topics|admission} to the CLI, and its exit
 * codes reach the shell.
 */
class AdminCliJarIT {

    private static final String TOKEN = "jar-cli-token";
    /** The test's own java, for the script (JAVA) as for the jar. */
    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private static RunningSluice sluice;
    private static Path tokenFile;

    @BeforeAll
    static void start() throws IOException {
        sluice = RunningSluice.frontProxyWithAdminToken(PulsarBroker.shared(), TOKEN);
        tokenFile = Files.createTempFile("sluice-token", "");
        Files.writeString(tokenFile, TOKEN);
    }

    @AfterAll
    static void stop() throws IOException {
        sluice.close();
        Files.deleteIfExists(tokenFile);
    }

    record Exit(int code, String out, String err) {}

    private static Exit run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        CompletableFuture<String> out = drain(process.getInputStream());
        CompletableFuture<String> err = drain(process.getErrorStream());
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "still running: " + command);
        return new Exit(process.exitValue(), out.get(), err.get());
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static List<String> script(String... args) {
        List<String> command = new ArrayList<>(
                List.of(MonitoringContractIT.repoFile("bin/sluice").toString()));
        command.addAll(List.of(args));
        return command;
    }

    private static Map<String, String> env() {
        return Map.of(
                "SLUICE_JAR",
                System.getProperty("sluice.jar"),
                "SLUICE_URL",
                sluice.adminUrl(),
                "SLUICE_TOKEN_FILE",
                tokenFile.toString(),
                "JAVA",
                JAVA);
    }

    @Test
    void theScriptSetsALimitThroughTheJar() throws Exception {
        Exit exit = run(script("limits", "set", "proxy", "--publish-rate", "2.5k"), env());
        try {
            assertEquals(0, exit.code(), exit.err());
            assertEquals(
                    2500.0, sluice.server.limits().current().proxy().publish().messagesPerSecond());
            assertTrue(exit.out().contains("\"messagesPerSecond\" : 2500.0"), exit.out());
        } finally {
            sluice.server.limits().update(d -> d.withLimit(ScopeRef.PROXY, null));
        }
    }

    @Test
    void theJarItselfTakesTheSubcommandsAndPassesExitCodesOn() throws Exception {
        List<String> jar = SluiceProcess.command("limits", "get", "proxy");
        Exit notFound = run(jar, env());
        assertEquals(1, notFound.code(), notFound.err());
        assertEquals(
                "sluice: the server refused GET /api/v1/limits/proxy (404): no limit for the proxy",
                notFound.err().strip());

        Exit usage = run(script("limits", "set", "proxy", "--publish-rate", "fast"), env());
        assertEquals(2, usage.code(), usage.err());
        assertTrue(usage.err().startsWith("sluice: invalid --publish-rate: 'fast' is not a quantity"), usage.err());

        int closed = FreePorts.loopback();
        Exit unreachable = run(script("throttled", "--url", "http://127.0.0.1:" + closed), env());
        assertEquals(3, unreachable.code(), unreachable.err());
        assertTrue(unreachable.err().contains("cannot connect to http://127.0.0.1:" + closed), unreachable.err());
    }

    @Test
    void withoutAJarTheScriptSaysHowToGetOne() throws Exception {
        Exit exit = run(script("topics"), Map.of("SLUICE_JAR", "/nonexistent/sluice.jar"));
        assertEquals(2, exit.code());
        assertTrue(exit.err().contains("cannot find sluice.jar"), exit.err());
    }
}
