package io.sluice.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.sluice.SluiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The executable jar as an operator runs it: exit codes, the error line, the ready line, SIGTERM. */
class SluiceJarIT {

    @TempDir
    Path dir;

    private static Process launch(String... args) throws Exception {
        return new ProcessBuilder(SluiceProcess.command(args)).start();
    }

    private static List<String> lines(java.io.InputStream in) throws Exception {
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                .lines()
                .toList();
    }

    /** Sluice with its admin API on every address and no token (--admin-insecure), and {@code options}. */
    private SluiceProcess startOnTheNetwork(String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "--upstream",
                "pulsar://127.0.0.1:6650",
                "--listen",
                "127.0.0.1:0",
                "--admin",
                "0.0.0.0:0",
                "--admin-insecure",
                "--limits-file",
                dir.resolve("limits.json").toString()));
        args.addAll(List.of(options));
        return SluiceProcess.start(args.toArray(String[]::new));
    }

    @Test
    void aBadOptionIsOneLineOnStderrAndExitCodeTwo() throws Exception {
        Process process = launch("--upstream", "pulsar://127.0.0.1:6650", "--listen", "nowhere");
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        List<String> stderr = lines(process.getErrorStream());
        assertEquals(1, stderr.size(), stderr.toString());
        assertTrue(stderr.get(0).startsWith("sluice: invalid --listen"), stderr.get(0));
    }

    @Test
    void anAdminPortOpenToTheNetworkWithoutATokenRefusesToStartNamingTheThreeWaysOut() throws Exception {
        Process process =
                launch("--upstream", "pulsar://127.0.0.1:6650", "--listen", "127.0.0.1:0", "--admin", "0.0.0.0:0");
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        List<String> stderr = lines(process.getErrorStream());
        assertEquals(1, stderr.size(), stderr.toString());
        String line = stderr.get(0);
        assertTrue(line.startsWith("sluice: the admin API on 0.0.0.0:0 would let anyone"), line);
        for (String wayOut : List.of("--admin-token-file PATH", "--admin 127.0.0.1:0", "--admin-insecure")) {
            assertTrue(line.contains(wayOut), "does not name " + wayOut + ": " + line);
        }
    }

    @Test
    void adminInsecureStartsOnTheNetworkAndWarnsAtTheStart() throws Exception {
        try (SluiceProcess sluice = startOnTheNetwork()) {
            sluice.readyLine();
            String log = Files.readString(sluice.logFile());
            assertTrue(
                    log.contains("WARN") && log.contains("has no token (--admin-insecure)"),
                    "no warning about the open admin API: " + log);
            sluice.terminate();
            assertEquals(0, sluice.awaitExit(30));
        }
    }

    @Test
    void jsonLogsAreOneObjectALineAndLevelsComeFromTheCommandLine() throws Exception {
        try (SluiceProcess sluice =
                startOnTheNetwork("--log-format", "json", "--log-levels", "info,io.sluice.admin=warn")) {
            sluice.readyLine();
            sluice.terminate();
            assertEquals(0, sluice.awaitExit(30));
            List<String> lines = Files.readAllLines(sluice.logFile()).stream()
                    .filter(line -> line.startsWith("{"))
                    .toList();
            ObjectMapper json = new ObjectMapper();
            boolean ready = false;
            boolean warned = false;
            for (String line : lines) {
                JsonNode event = json.readTree(line);
                for (String field : List.of("time", "level", "logger", "thread", "message")) {
                    assertTrue(event.hasNonNull(field), field + " missing in " + line);
                }
                ready |= event.get("message").asText().startsWith("Sluice ready");
                warned |= event.get("level").asText().equals("WARN")
                        && event.get("message").asText().contains("has no token (--admin-insecure)");
                assertTrue(
                        !event.get("logger").asText().startsWith("io.sluice.admin")
                                || !event.get("level").asText().equals("INFO"),
                        "io.sluice.admin logged at INFO under io.sluice.admin=warn: " + line);
            }
            assertTrue(ready, "no ready line among " + lines);
            assertTrue(warned, "no warning about the open admin API among " + lines);
        }
    }

    @Test
    void anInvalidLimitsFileStopsTheStartWithExitCodeTwo() throws Exception {
        Path limits = dir.resolve("limits.json");
        Files.writeString(limits, "{\"tenants\":{\"t\":{\"publish\":{\"messagesPerSecond\":\"fast\"}}}}");
        Process process = launch(
                "--upstream",
                "pulsar://127.0.0.1:6650",
                "--listen",
                "127.0.0.1:0",
                "--admin",
                "127.0.0.1:0",
                "--limits-file",
                limits.toString());
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        List<String> stderr = lines(process.getErrorStream());
        assertEquals(1, stderr.size(), stderr.toString());
        assertTrue(stderr.get(0).contains("messagesPerSecond"), stderr.get(0));
    }

    @Test
    void sigtermStopsARunningSluiceWithExitCodeZero() throws Exception {
        int port = FreePorts.loopback();
        try (SluiceProcess sluice = SluiceProcess.start(
                "--upstream",
                "pulsar://127.0.0.1:6650",
                "--listen",
                "127.0.0.1:" + port,
                "--admin",
                "127.0.0.1:0",
                "--limits-file",
                dir.resolve("limits.json").toString())) {
            assertTrue(
                    sluice.readyLine().contains(String.valueOf(port)),
                    "logs one ready line naming its port: " + sluice.readyLine());
            assertTrue(Files.exists(dir.resolve("limits.json")), "an absent limits file is created");
            sluice.terminate();
            assertEquals(0, sluice.awaitExit(30));
        }
    }
}
