package io.sluice.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.admission.AdmissionMode;
import io.sluice.admission.AdmissionSettings;
import io.sluice.admission.Signal;
import io.sluice.cli.AdminCli;
import io.sluice.limits.AdaptiveLimit;
import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.OnExceed;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.pulsar.PulsarBroker;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admin CLI ({@code sluice limits|throttled|topics|admission}) against a real Sluice with an
 * admin token, in front of the real broker: each command's effect is checked in the server's own
 * limits store and admission controller, each failure's exit code and message.
 */
class AdminCliIT {

    private static final String TOKEN = "cli-test-token";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RunningSluice sluice;
    private static Path tokenFile;

    @TempDir
    Path dir;

    /** What one run of the CLI printed and returned. */
    record Run(int exit, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        sluice = RunningSluice.frontProxyWithAdminToken(broker, TOKEN);
        tokenFile = Files.createTempFile("sluice-token", "");
        Files.writeString(tokenFile, TOKEN + "\n");
    }

    @AfterAll
    static void stop() throws Exception {
        sluice.close();
        Files.deleteIfExists(tokenFile);
    }

    private static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put("SLUICE_URL", sluice.adminUrl());
        env.put("SLUICE_TOKEN_FILE", tokenFile.toString());
        return env;
    }

    private static Run cli(String... args) {
        return cli(env(), "", args);
    }

    private static Run cli(Map<String, String> env, String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = AdminCli.run(
                args,
                env,
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC());
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Run ok(String... args) {
        Run run = cli(args);
        assertEquals(AdminCli.OK, run.exit(), String.join(" ", args) + " failed: " + run.err());
        return run;
    }

    private static LimitsDocument limits() {
        return sluice.server.limits().current();
    }

    private static String topic(String name) {
        return "persistent://public/default/cli-" + name + "-" + System.nanoTime();
    }

    @Test
    void setChangesOnlyTheNamedFieldsGetShowsThemDeleteRemovesThem() throws Exception {
        String topic = topic("orders");
        Run set = ok("limits", "set", "topic", topic, "--publish-rate", "500", "--on-exceed", "reject");
        assertEquals(
                500.0,
                JSON.readTree(set.out())
                        .path("publish")
                        .path("messagesPerSecond")
                        .asDouble(),
                "prints the stored limit");
        Limit stored = limits().limitsOf(PulsarScopes.TOPIC).get(topic);
        assertEquals(500.0, stored.publish().messagesPerSecond());
        assertEquals(OnExceed.REJECT, stored.onExceed());

        ok("limits", "set", "topic", topic, "--publish-bytes", "10MiB", "--burst", "2");
        stored = limits().limitsOf(PulsarScopes.TOPIC).get(topic);
        assertEquals(500.0, stored.publish().messagesPerSecond(), "a field not named keeps its value");
        assertEquals(10.0 * 1024 * 1024, stored.publish().bytesPerSecond());
        assertEquals(2.0, stored.publish().burstSeconds());
        assertEquals(OnExceed.REJECT, stored.onExceed());

        ok("limits", "set", "topic", topic, "--publish-rate", "unlimited", "--dispatch-rate", "1.5k");
        stored = limits().limitsOf(PulsarScopes.TOPIC).get(topic);
        assertNull(stored.publish().messagesPerSecond(), "'unlimited' removes the field");
        assertEquals(1500.0, stored.dispatch().messagesPerSecond());

        JsonNode got = JSON.readTree(ok("limits", "get", "topic", topic).out());
        assertEquals(JSON.readTree(LimitsJson.write(stored)), got, "get prints the limit in force");

        assertTrue(ok("limits", "delete", "topic", topic).out().contains("Removed the limit of topic " + topic));
        assertFalse(limits().limitsOf(PulsarScopes.TOPIC).containsKey(topic));
        Run again = cli("limits", "delete", "topic", topic);
        assertEquals(AdminCli.REFUSED, again.exit());
        assertEquals(
                List.of("sluice: the server refused DELETE " + topicPath(topic) + " (404): no limit for topic "
                        + topic),
                again.errLines(),
                "the server's own message, on one line");
        Run missing = cli("limits", "get", "topic", topic);
        assertEquals(AdminCli.REFUSED, missing.exit());
        assertTrue(missing.err().contains("no limit for topic " + topic), missing.err());
    }

    private static String topicPath(String topic) {
        return "/api/v1/limits/topics/persistent/public/default/"
                + topic.substring("persistent://public/default/".length());
    }

    @Test
    void namespaceTenantAndProxyLimitsTakeHumanUnits() {
        String tenant = "cli-tenant-" + System.nanoTime();
        ok("limits", "set", "namespace", "public/default", "--publish-bytes", "1.5MB", "--publish-burst", "0.5");
        ok("limits", "set", "tenant", tenant, "--dispatch-rate", "5k", "--dispatch-bytes", "64KiB/s");
        ok("limits", "set", "proxy", "--publish-rate", "1.5M");
        try {
            assertEquals(
                    1_500_000.0,
                    limits().limitsOf(PulsarScopes.NAMESPACE)
                            .get("public/default")
                            .publish()
                            .bytesPerSecond());
            assertEquals(
                    0.5,
                    limits().limitsOf(PulsarScopes.NAMESPACE)
                            .get("public/default")
                            .publish()
                            .burstSeconds());
            assertEquals(
                    5000.0,
                    limits().limitsOf(PulsarScopes.TENANT)
                            .get(tenant)
                            .dispatch()
                            .messagesPerSecond());
            assertEquals(
                    65536.0,
                    limits().limitsOf(PulsarScopes.TENANT)
                            .get(tenant)
                            .dispatch()
                            .bytesPerSecond());
            assertEquals(1_500_000.0, limits().proxy().publish().messagesPerSecond());

            String list = ok("limits", "list").out();
            assertTrue(
                    list.lines()
                            .anyMatch(l -> l.matches(
                                    "namespace\\s+public/default\\s+delay\\s+publish 1\\.4 MiB/s \\(burst 0\\.5 s\\)")),
                    list);
            assertTrue(
                    list.lines()
                            .anyMatch(
                                    l -> l.matches("tenant\\s+" + tenant + "\\s+delay\\s+dispatch 5k msg/s, 64 KiB/s")),
                    list);
            assertTrue(list.lines().anyMatch(l -> l.matches("proxy\\s+-\\s+delay\\s+publish 1\\.5M msg/s")), list);
        } finally {
            ok("limits", "delete", "namespace", "public/default");
            ok("limits", "delete", "tenant", tenant);
            ok("limits", "delete", "proxy");
        }
        assertTrue(limits().limitsOf(PulsarScopes.NAMESPACE).isEmpty()
                && limits().limitsOf(PulsarScopes.TENANT).isEmpty()
                && limits().proxy() == null);
    }

    @Test
    void connectionLimitsAreSetAndRestoredButNeverDeleted() {
        ok("limits", "set", "connection", "--max-held-bytes", "128MiB");
        assertEquals(
                new ConnectionLimits(ConnectionLimits.DEFAULT.maxPendingSends(), 128L * 1024 * 1024),
                limits().connection());
        ok("limits", "set", "connection", "--replace");
        assertEquals(ConnectionLimits.DEFAULT, limits().connection());
        Run delete = cli("limits", "delete", "connection");
        assertEquals(AdminCli.USAGE, delete.exit());
        assertTrue(delete.err().contains("sluice limits set connection --replace"), delete.err());
        Run rate = cli("limits", "set", "connection", "--publish-rate", "5");
        assertEquals(AdminCli.USAGE, rate.exit());
    }

    @Test
    void anAddressBlockTakesARateOfConnectionsAndOnlyThat() throws Exception {
        ok("limits", "set", "ip", "10.1.2.3/16", "--connections-per-second", "10");
        try {
            JsonNode limit =
                    JSON.readTree(ok("limits", "get", "ip", "10.1.0.0/16").out());
            assertEquals(10.0, limit.path("connections").path("perSecond").asDouble());
            ok("limits", "set", "ip", "10.1.0.0/16", "--connections-burst", "2");
            assertEquals(
                    2.0,
                    JSON.readTree(ok("limits", "get", "ip", "10.1.0.0/16").out())
                            .path("connections")
                            .path("burstSeconds")
                            .asDouble(),
                    "the rate kept, the burst changed");
            assertTrue(ok("limits", "list").out().contains("connections 10/s (burst 2 s)"));
            Run publish = cli("limits", "set", "ip", "10.1.0.0/16", "--publish-rate", "5");
            assertEquals(AdminCli.REFUSED, publish.exit(), publish.err());
            assertTrue(publish.err().contains("publish: ips limits do not take it"), publish.err());
        } finally {
            ok("limits", "delete", "ip", "10.1.0.0/16");
        }
    }

    @Test
    void aRoleTakesARateOfRequestsAndAGroupDoesNot() throws Exception {
        ok("limits", "set", "role", "*", "--requests-per-second", "100", "--on-exceed", "reject");
        try {
            JsonNode limit = JSON.readTree(ok("limits", "get", "role", "*").out());
            assertEquals(100.0, limit.path("requests").path("perSecond").asDouble());
            assertEquals("reject", limit.path("onExceed").asText());
            ok("limits", "set", "role", "*", "--requests-burst", "2");
            assertEquals(
                    2.0,
                    JSON.readTree(ok("limits", "get", "role", "*").out())
                            .path("requests")
                            .path("burstSeconds")
                            .asDouble(),
                    "the rate kept, the burst changed");
            assertTrue(ok("limits", "list").out().contains("requests 100/s (burst 2 s)"));
            Run burstAlone = cli("limits", "set", "ip", "10.9.0.0/16", "--requests-burst", "2");
            assertEquals(AdminCli.USAGE, burstAlone.exit(), burstAlone.err());
            assertTrue(burstAlone.err().contains("--requests-burst needs a rate"), burstAlone.err());
            Run group = cli("limits", "set", "kafka-group", "orders-*", "--requests-per-second", "5");
            assertEquals(AdminCli.REFUSED, group.exit(), group.err());
            assertTrue(group.err().contains("requests: kafka.groups limits do not take it"), group.err());
        } finally {
            ok("limits", "delete", "role", "*");
        }
    }

    @Test
    void aKafkaPrincipalTakesARateOfTopicMutationsAndATopicDoesNot() throws Exception {
        ok("limits", "set", "kafka-principal", "User:deployer", "--mutations-per-second", "5");
        try {
            JsonNode limit = JSON.readTree(
                    ok("limits", "get", "kafka-principal", "User:deployer").out());
            assertEquals(
                    5.0, limit.path("mutations").path("partitionsPerSecond").asDouble());
            ok("limits", "set", "kafka-principal", "User:deployer", "--mutations-burst", "2");
            assertEquals(
                    2.0,
                    JSON.readTree(ok("limits", "get", "kafka-principal", "User:deployer")
                                    .out())
                            .path("mutations")
                            .path("burstSeconds")
                            .asDouble(),
                    "the rate kept, the burst changed");
            assertTrue(ok("limits", "list").out().contains("mutations 5 partitions/s (burst 2 s)"));
            Run topic = cli("limits", "set", "kafka-topic", "orders", "--mutations-per-second", "5");
            assertEquals(AdminCli.REFUSED, topic.exit(), topic.err());
            assertTrue(
                    topic.err().contains("mutations: kafka.topics limits do not take it")
                            && topic.err().contains("kafka.principals"),
                    topic.err());
        } finally {
            ok("limits", "delete", "kafka-principal", "User:deployer");
        }
    }

    @Test
    void aConsumerGroupGlobTakesRatesOfJoinsAndCommitsAndOnlyThose() throws Exception {
        ok("limits", "set", "kafka-group", "orders-*", "--joins-per-minute", "10", "--commits-per-minute", "600");
        try {
            JsonNode limit =
                    JSON.readTree(ok("limits", "get", "kafka-group", "orders-*").out());
            assertEquals(10.0, limit.path("joinsPerMinute").asDouble());
            assertEquals(600.0, limit.path("commitsPerMinute").asDouble());
            ok(
                    "limits",
                    "set",
                    "kafka-group",
                    "orders-*",
                    "--commits-per-minute",
                    "unlimited",
                    "--on-exceed",
                    "reject");
            limit = JSON.readTree(ok("limits", "get", "kafka-group", "orders-*").out());
            assertEquals(10.0, limit.path("joinsPerMinute").asDouble(), "the joins rate kept");
            assertTrue(limit.path("commitsPerMinute").isMissingNode(), "the commits rate removed");
            assertTrue(ok("limits", "list").out().contains("joins 10/min"));
            Run publish = cli("limits", "set", "kafka-group", "orders-*", "--publish-rate", "5");
            assertEquals(AdminCli.REFUSED, publish.exit(), publish.err());
            assertTrue(publish.err().contains("publish: kafka.groups limits do not take it"), publish.err());
        } finally {
            ok("limits", "delete", "kafka-group", "orders-*");
        }
    }

    @Test
    void kafkaScopesUseTheirRoutesWithTheNameEncoded() throws Exception {
        String clientId = "billing/eu service";
        ok("limits", "set", "kafka-topic", "orders.v1", "--publish-bytes", "10MiB");
        ok("limits", "set", "kafka-prefix", "orders.", "--publish-rate", "2k", "--on-exceed", "delay");
        ok("limits", "set", "kafka-client", clientId, "--dispatch-bytes", "1MiB");
        try {
            assertEquals(
                    10.0 * 1024 * 1024,
                    JSON.readTree(ok("limits", "get", "kafka-topic", "orders.v1")
                                    .out())
                            .path("publish")
                            .path("bytesPerSecond")
                            .asDouble());
            assertEquals(
                    2000.0,
                    JSON.readTree(ok("limits", "get", "kafka-prefix", "orders.").out())
                            .path("publish")
                            .path("messagesPerSecond")
                            .asDouble());
            assertEquals(
                    1024.0 * 1024,
                    JSON.readTree(ok("limits", "get", "kafka-client", clientId).out())
                            .path("dispatch")
                            .path("bytesPerSecond")
                            .asDouble());
        } finally {
            ok("limits", "delete", "kafka-topic", "orders.v1");
            ok("limits", "delete", "kafka-prefix", "orders.");
            ok("limits", "delete", "kafka-client", clientId);
        }
        assertEquals(
                AdminCli.REFUSED, cli("limits", "get", "kafka-client", clientId).exit());
    }

    @Test
    void anAdaptiveLimitIsSetShownAndMadeFixedAgain() {
        String tenant = "cli-adaptive-" + System.nanoTime();
        try {
            ok(
                    "limits",
                    "set",
                    "tenant",
                    tenant,
                    "--publish-rate",
                    "1M",
                    "--adaptive-target",
                    "20ms",
                    "--adaptive-floor",
                    "5%");
            AdaptiveLimit adaptive =
                    limits().limitsOf(PulsarScopes.TENANT).get(tenant).publish().adaptive();
            assertEquals(new AdaptiveLimit(20.0, 0.05), adaptive);
            String list = ok("limits", "list").out();
            assertTrue(
                    list.lines()
                            .anyMatch(l -> l.matches("tenant\\s+" + tenant
                                    + "\\s+delay\\s+publish 1M msg/s \\(adaptive: target 20 ms, floor 5%\\)")),
                    list);

            Run tooLow = cli("limits", "set", "tenant", tenant, "--adaptive-target", "0.01ms");
            assertEquals(AdminCli.REFUSED, tooLow.exit());
            assertTrue(
                    tooLow.err().contains("(400): publish.adaptive.targetLatencyMillis: must be between 0.1 and 60000"),
                    tooLow.err());
            Run noCeiling = cli(
                    "limits",
                    "set",
                    "tenant",
                    tenant,
                    "--dispatch-rate",
                    "5",
                    "--publish-rate",
                    "unlimited",
                    "--adaptive-target",
                    "20ms");
            assertEquals(AdminCli.USAGE, noCeiling.exit());
            assertTrue(noCeiling.err().contains("needs a publish rate for its ceiling"), noCeiling.err());

            ok("limits", "set", "tenant", tenant, "--adaptive-target", "off");
            assertEquals(
                    null,
                    limits().limitsOf(PulsarScopes.TENANT).get(tenant).publish().adaptive());
        } finally {
            ok("limits", "delete", "tenant", tenant);
        }
    }

    @Test
    void aRejectedChangeNamesTheProblemAndChangesNothing() {
        String topic = topic("bad");
        ok("limits", "set", "topic", topic, "--publish-rate", "100");
        LimitsDocument before = limits();

        Run burst = cli("limits", "set", "topic", topic, "--publish-burst", "100");
        assertEquals(AdminCli.REFUSED, burst.exit());
        assertEquals(1, burst.errLines().size(), burst.err());
        assertTrue(
                burst.err().contains("(400): publish.burstSeconds: must be between 0.01 and 60, got 100"), burst.err());

        Run unit = cli("limits", "set", "topic", topic, "--publish-bytes", "10XB");
        assertEquals(AdminCli.USAGE, unit.exit());
        assertTrue(unit.err().startsWith("sluice: invalid --publish-bytes: '10XB' is not a quantity"), unit.err());

        Run scope = cli("limits", "set", "subscription", "x", "--publish-rate", "1");
        assertEquals(AdminCli.USAGE, scope.exit());
        assertTrue(
                scope.err()
                        .contains("unknown scope 'subscription'; scopes are topic, namespace, tenant, role, ip, proxy,"
                                + " connection, kafka-topic, kafka-prefix, kafka-client, kafka-principal"),
                scope.err());

        Run shortName = cli("limits", "set", "topic", "orders", "--publish-rate", "1");
        assertEquals(AdminCli.USAGE, shortName.exit());
        assertTrue(shortName.err().contains("a topic is named in full"), shortName.err());

        Run nothing = cli("limits", "set", "topic", topic);
        assertEquals(AdminCli.USAGE, nothing.exit());
        assertTrue(nothing.err().contains("nothing to set"), nothing.err());

        Run unknownOption = cli("limits", "set", "topic", topic, "--publish-rtae", "1");
        assertEquals(AdminCli.USAGE, unknownOption.exit());
        assertTrue(unknownOption.err().contains("--publish-rtae"), unknownOption.err());

        assertEquals(before, limits(), "nothing changed");
        ok("limits", "delete", "topic", topic);
    }

    @Test
    void tokenAndConnectionProblemsHaveTheirOwnExitCodes() throws Exception {
        Map<String, String> noToken = new HashMap<>(env());
        noToken.remove("SLUICE_TOKEN_FILE");
        Run unauthorized = cli(noToken, "", "limits", "export");
        assertEquals(AdminCli.REFUSED, unauthorized.exit());
        assertTrue(
                unauthorized.err().contains("(401)") && unauthorized.err().contains("--token-file"),
                unauthorized.err());

        Map<String, String> wrongToken = new HashMap<>(noToken);
        wrongToken.put("SLUICE_ADMIN_TOKEN", TOKEN);
        assertEquals(
                AdminCli.OK,
                cli(wrongToken, "", "limits", "export").exit(),
                "inside Sluice's container the server's own SLUICE_ADMIN_TOKEN is used");

        Run missingFile =
                cli("limits", "export", "--token-file", dir.resolve("absent").toString());
        assertEquals(AdminCli.USAGE, missingFile.exit());
        assertTrue(missingFile.err().contains("cannot read the token file"), missingFile.err());

        int closedPort = FreePorts.loopback();
        Run unreachable = cli("limits", "export", "--url", "http://127.0.0.1:" + closedPort);
        assertEquals(AdminCli.UNREACHABLE, unreachable.exit());
        assertEquals(
                List.of("sluice: cannot connect to http://127.0.0.1:" + closedPort + ": connection refused;"
                        + " is Sluice's admin API there? (--url or SLUICE_URL)"),
                unreachable.errLines());

        Map<String, String> fromAdminAddress = new HashMap<>(noToken);
        fromAdminAddress.remove("SLUICE_URL");
        fromAdminAddress.put("SLUICE_ADMIN", "0.0.0.0:" + sluice.server.adminPort());
        fromAdminAddress.put("SLUICE_ADMIN_TOKEN", TOKEN);
        assertEquals(
                AdminCli.OK,
                cli(fromAdminAddress, "", "limits", "list").exit(),
                "inside Sluice's container the server's own SLUICE_ADMIN address is used");
    }

    @Test
    void exportThenImportShowsTheChangesAndRestoresTheLimits() throws Exception {
        String kept = topic("kept");
        String changed = topic("changed");
        String removedLater = topic("removed");
        ok("limits", "set", "topic", kept, "--publish-rate", "10");
        ok("limits", "set", "topic", changed, "--publish-rate", "20");
        ok("limits", "set", "topic", removedLater, "--publish-rate", "30");
        Path backup = dir.resolve("limits.json");
        assertTrue(ok("limits", "export", "-o", backup.toString())
                .out()
                .contains("Wrote the limits document to " + backup));
        LimitsDocument exported = limits();
        assertEquals(
                exported,
                LimitsJson.parseDocument(
                        Files.readAllBytes(backup), sluice.server.limits().catalogue()),
                "the file is the document in force");
        assertEquals(
                JSON.readTree(Files.readAllBytes(backup)),
                JSON.readTree(ok("limits", "export").out()),
                "stdout the same");

        String added = topic("added");
        ok("limits", "set", "topic", added, "--publish-rate", "40");
        ok("limits", "set", "topic", changed, "--publish-rate", "25", "--on-exceed", "reject");
        ok("limits", "delete", "topic", removedLater);
        LimitsDocument drifted = limits();

        Run dryRun = ok("limits", "import", backup.toString(), "--dry-run");
        List<String> lines = dryRun.out().lines().toList();
        assertTrue(lines.contains("~ topic " + changed), dryRun.out());
        assertTrue(lines.contains("    onExceed: reject -> delay"), dryRun.out());
        assertTrue(lines.contains("    publish.messagesPerSecond: 25 -> 20"), dryRun.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("+ topic " + removedLater + "  {")), dryRun.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("- topic " + added + "  {")), dryRun.out());
        assertFalse(dryRun.out().contains(kept), "unchanged scopes are only counted");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("1 added, 1 changed, 1 removed, ")), dryRun.out());
        assertTrue(lines.contains("Dry run: nothing changed."), dryRun.out());
        assertEquals(drifted, limits(), "a dry run changes nothing");

        Path invalid = dir.resolve("invalid.json");
        Files.writeString(invalid, "{\"topics\": {\"" + kept + "\": {\"publish\": {\"messagesPerSecond\": -5}}}}");
        Run bad = cli("limits", "import", invalid.toString());
        assertEquals(AdminCli.USAGE, bad.exit());
        assertTrue(
                bad.err()
                        .contains("is not a valid limits document: topics[\"" + kept + "\"].publish.messagesPerSecond:"
                                + " must be a positive finite number, got -5"),
                bad.err());
        assertEquals(drifted, limits(), "an invalid document changes nothing");

        Run apply = ok("limits", "import", backup.toString());
        assertTrue(apply.out().lines().toList().contains("Applied."), apply.out());
        assertEquals(exported, limits(), "the backup is in force again");
        assertTrue(
                cli(env(), Files.readString(backup), "limits", "import", "-")
                        .out()
                        .contains("Nothing to change."),
                "- reads standard input");

        Run empty = cli("limits", "import", "-");
        assertEquals(AdminCli.USAGE, empty.exit());
        assertTrue(empty.err().contains("standard input is not a valid limits document"), empty.err());
        for (String topic : List.of(kept, changed, removedLater)) {
            ok("limits", "delete", "topic", topic);
        }
    }

    @Test
    void throttledAndTopicsShowALiveThrottle() throws Exception {
        String topic = topic("throttled");
        ok("limits", "set", "topic", topic, "--publish-rate", "5");
        try (PulsarClient client =
                        PulsarClient.builder().serviceUrl(sluice.serviceUrl).build();
                Producer<byte[]> producer = client.newProducer()
                        .topic(topic)
                        .enableBatching(false)
                        .sendTimeout(0, TimeUnit.SECONDS)
                        .create()) {
            for (int i = 0; i < 60; i++) {
                producer.sendAsync(new byte[100]);
            }
            JsonNode entry = awaitThrottled(topic);
            assertEquals("topic", entry.path("scope").asText());
            assertEquals("delay", entry.path("action").asText());

            String table = ok("throttled").out();
            List<String> header =
                    List.of(table.lines().findFirst().orElseThrow().trim().split("\\s{2,}"));
            assertEquals(
                    List.of(
                            "PROTOCOL",
                            "TOPIC",
                            "CLIENT",
                            "SCOPE",
                            "REASON",
                            "ACTION",
                            "FOR",
                            "HELD MSGS",
                            "HELD BYTES",
                            "CONNECTION"),
                    header);
            String row = table.lines()
                    .filter(l -> l.contains(topic))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(table));
            assertTrue(
                    row.matches(".*" + topic + "\\s+producerId=\\d+\\s+topic\\s+\\S.*\\s+delay\\s+\\d+s\\s+\\d+\\s+.*"),
                    row);

            String topics = ok("topics").out();
            assertTrue(topics.lines().findFirst().orElseThrow().startsWith("PROTOCOL"), topics);
            assertTrue(topics.lines().anyMatch(l -> l.contains(topic)), topics);
            JsonNode json = JSON.readTree(ok("topics", "--json").out());
            assertTrue(json.isArray() && json.findValuesAsText("topic").contains(topic), json.toString());
            assertEquals(1, ok("topics", "--top", "1").out().lines().count() - 1, "--top 1: the header and one topic");
        } finally {
            ok("limits", "delete", "topic", topic);
        }
    }

    private static JsonNode awaitThrottled(String topic) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (JsonNode entry : JSON.readTree(ok("throttled", "--json").out())) {
                if (topic.equals(entry.path("topic").asText())) {
                    return entry;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError(topic + " never listed by 'sluice throttled'");
    }

    @Test
    void admissionSetChangesTheControllerAndGetShowsIt() {
        AdmissionSettings original = sluice.server.services().admission().settings();
        try {
            Run set = ok(
                    "admission",
                    "set",
                    "--mode",
                    "monitor_only",
                    "--threshold",
                    "cpu=0.95",
                    "--threshold",
                    "heap=off",
                    "--open-after-breaches",
                    "5");
            AdmissionSettings now = sluice.server.services().admission().settings();
            assertEquals(AdmissionMode.MONITOR_ONLY, now.mode());
            assertEquals(0.95, now.threshold(Signal.CPU));
            assertNull(now.threshold(Signal.HEAP), "off: the signal is not used");
            assertEquals(5, now.openAfterBreaches());
            assertTrue(set.out().startsWith("Mode: monitor_only"), set.out());
            String get = ok("admission", "get").out();
            assertTrue(get.lines().anyMatch(l -> l.matches("cpu\\s+(\\S+%|unknown)\\s+95\\.0%\\s+(yes|no)")), get);
            assertTrue(get.lines().anyMatch(l -> l.matches("heap\\s+\\S+\\s+off\\s+no")), get);
            assertTrue(get.lines().anyMatch(l -> l.matches("NEW_CONNECTION\\s+CLOSED\\s+.*")), get);
            assertEquals(
                    "monitor_only",
                    JSON.readTree(ok("admission", "get", "--json").out())
                            .path("settings")
                            .path("mode")
                            .asText(""),
                    "--json is the server's document");

            Run bad = cli("admission", "set", "--mode", "fast");
            assertEquals(AdminCli.REFUSED, bad.exit());
            assertTrue(
                    bad.err()
                            .contains(
                                    "mode: must be one of \"disabled\", \"monitor_only\", \"enforced\", got \"fast\""),
                    bad.err());
            assertEquals(AdminCli.USAGE, cli("admission", "set").exit(), "nothing to set");
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            sluice.server.services().admission().update(original);
        }
    }
}
