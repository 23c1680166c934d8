package io.sluice.server.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.server.it.PromQl.Matcher;
import io.sluice.server.it.PromQl.Reads;
import io.sluice.server.it.PromQl.Selector;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.pulsar.PulsarTokens;
import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.Consumer;
import org.apache.pulsar.client.api.Message;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Grafana dashboard and the alert rules (helm/sluice/files, copied in docs/monitoring) read
 * only metrics and labels that a real Sluice exports: a Sluice in front of the real broker is put
 * through traffic that makes every family have series (delayed and rejected sends, consumers, a
 * malformed frame, connections over an address's rate), then every panel query, template variable
 * and alert expression is scanned ({@link PromQl}) and each metric, matcher label, matched value,
 * grouping label, legend label and annotation label is looked up in the scrape. A renamed metric or label fails this test.
 * Three roles (token authentication) are throttled with room for two in the {@code role} label,
 * so the label's {@code _other} overflow is in the scrape too.
 *
 * <p>Metrics the files use before Sluice exports them are listed in {@link #NOT_YET_EXPORTED}
 * (and in docs/OPERATIONS.md); the test prints where they are used, and fails once one of them is
 * exported, so the list never goes stale.
 */
class MonitoringContractIT {

    /** Labels Prometheus gives every series of a target; Sluice does not write them. */
    private static final Set<String> TARGET_LABELS = Set.of("instance", "job");

    /** Series Prometheus makes for each target itself. */
    private static final Set<String> SCRAPE_METRICS = Set.of("up");

    /** Used by the dashboard or the rules, not exported yet; docs/OPERATIONS.md lists the same. */
    static final Map<String, String> NOT_YET_EXPORTED =
            Map.of("sluice_cluster_store_up", "exported with --cluster-store only; this test's Sluice runs without");

    private static final Pattern PLAIN_ALTERNATIVES = Pattern.compile("[A-Za-z0-9_]+(\\|[A-Za-z0-9_]+)*");
    private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*}}");
    private static final Pattern ANNOTATION_LABEL = Pattern.compile("\\$labels\\.([a-zA-Z_][a-zA-Z0-9_]*)");
    private static final Pattern LABEL_VALUES =
            Pattern.compile("label_values\\((.*),\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\)", Pattern.DOTALL);

    private static final byte[] SECRET = "sluice-test-secret-of-32-bytes!!".getBytes(StandardCharsets.US_ASCII);

    /** Roles with a name of their own in the throttle-event counters; three are throttled. */
    private static final int NAMED_IDENTITIES = 2;

    private static PulsarBroker broker;
    private static RunningSluice sluice;
    private static ExposedMetrics exposed;

    @BeforeAll
    static void trafficThenScrape() throws Exception {
        broker = PulsarBroker.builder().tokenAuthentication(SECRET).start();
        sluice = RunningSluice.frontProxyNamingIdentities(broker, NAMED_IDENTITIES);
        String delayed = "persistent://public/default/monitoring-delayed-" + System.nanoTime();
        String rejected = "persistent://public/default/monitoring-rejected-" + System.nanoTime();
        sluice.server
                .limits()
                .update(d -> d.withLimit(
                                new ScopeRef(PulsarScopes.TOPIC, delayed),
                                LimitsJson.parseLimit(("{\"publish\":{\"messagesPerSecond\":20,\"bytesPerSecond\":1e9},"
                                                + "\"dispatch\":{\"messagesPerSecond\":1e6,\"bytesPerSecond\":1e9}}")
                                        .getBytes(StandardCharsets.UTF_8)))
                        .withLimit(
                                new ScopeRef(PulsarScopes.TOPIC, rejected),
                                LimitsJson.parseLimit("{\"publish\":{\"messagesPerSecond\":2},\"onExceed\":\"reject\"}"
                                        .getBytes(StandardCharsets.UTF_8)))
                        // An adaptive limit that never binds, for the sluice_adaptive_* families.
                        .withLimit(
                                new ScopeRef(PulsarScopes.TENANT, "public"),
                                LimitsJson.parseLimit(("{\"publish\":{\"messagesPerSecond\":1e9,"
                                                + "\"adaptive\":{\"targetLatencyMillis\":60000}}}")
                                        .getBytes(StandardCharsets.UTF_8))));
        try (PulsarClient alice = client("alice");
                PulsarClient bob = client("bob");
                PulsarClient carol = client("carol");
                Consumer<byte[]> consumer = alice.newConsumer()
                        .topic(delayed)
                        .subscriptionName("monitoring")
                        .subscribe();
                Producer<byte[]> slow = alice.newProducer()
                        .topic(delayed)
                        .enableBatching(false)
                        .sendTimeout(0, TimeUnit.SECONDS)
                        .create();
                Producer<byte[]> refused =
                        bob.newProducer().topic(rejected).enableBatching(false).create();
                Producer<byte[]> alsoRefused = carol.newProducer()
                        .topic(rejected)
                        .enableBatching(false)
                        .create()) {
            List<CompletableFuture<?>> sends = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                sends.add(slow.sendAsync(("delayed " + i).getBytes(StandardCharsets.UTF_8)));
                sends.add(refused.sendAsync(("rejected " + i).getBytes(StandardCharsets.UTF_8))
                        .exceptionally(e -> null));
                sends.add(alsoRefused
                        .sendAsync(("also rejected " + i).getBytes(StandardCharsets.UTF_8))
                        .exceptionally(e -> null));
            }
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            for (int i = 0; i < 10; i++) {
                Message<byte[]> message = consumer.receive(30, TimeUnit.SECONDS);
                consumer.acknowledge(message);
            }
        }
        sendMalformedFrame();
        connectOverTheRate();
        exposed = scrapeOnceEverySignalIsIn();
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    private static PulsarClient client(String role) throws Exception {
        return PulsarClient.builder()
                .serviceUrl(sluice.serviceUrl)
                .authentication(AuthenticationFactory.token(PulsarTokens.hs256(SECRET, role)))
                .operationTimeout(30, TimeUnit.SECONDS)
                .build();
    }

    /** A frame longer than any broker accepts: Sluice closes the connection and counts a protocol error. */
    private static void sendMalformedFrame() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", sluice.server.proxyPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {(byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0, 1});
            out.flush();
            InputStream in = socket.getInputStream();
            while (in.read() >= 0) {
                // Until Sluice closes.
            }
        }
    }

    /**
     * Four connections at once from an address limited to one new connection a second: Sluice admits
     * one, holds the others up to a second, admits one more and closes the rest, counting them as
     * refused for the connection rate. The address is one of the loopback block's, so that no other
     * client of this test is limited.
     */
    private static void connectOverTheRate() throws Exception {
        String address = "127.0.0.9";
        sluice.server
                .limits()
                .update(d ->
                        d.withLimit(new ScopeRef(ScopeKind.IPS, address), Limit.connections(new EventRate(1.0, 1.0))));
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Socket socket = new Socket();
                sockets.add(socket);
                socket.bind(new InetSocketAddress(address, 0));
                socket.connect(new InetSocketAddress("127.0.0.1", sluice.server.proxyPort()), 10_000);
            }
            Thread.sleep(1_500);
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /**
     * Admission signals are sampled every second, adaptive limits run every second; upstream latency
     * needs the traffic above in its window.
     */
    private static ExposedMetrics scrapeOnceEverySignalIsIn() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(sluice.adminUrl() + "/metrics"))
                .build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        // A send every 50 ms meanwhile: the adaptive limit shows the latency of its last second only.
        try (PulsarClient client = client("trickle");
                Producer<byte[]> trickle = client.newProducer()
                        .topic("persistent://public/default/monitoring-trickle-" + System.nanoTime())
                        .enableBatching(false)
                        .create()) {
            while (true) {
                trickle.send(new byte[10]);
                ExposedMetrics metrics = ExposedMetrics.parse(
                        http.send(request, HttpResponse.BodyHandlers.ofString()).body());
                Set<String> signals = metrics.values("sluice_admission_signal", "signal");
                if ((signals.containsAll(Set.of(
                                        "upstream_latency_p99", "event_loop_lag", "cpu", "heap", "direct_memory"))
                                && !metrics.values("sluice_adaptive_latency_p99_seconds", "name")
                                        .isEmpty())
                        || System.nanoTime() > deadline) {
                    return metrics;
                }
                Thread.sleep(50);
            }
        }
    }

    @Test
    void everyDashboardQueryReadsWhatSluiceExports() throws Exception {
        JsonNode dashboard = new ObjectMapper()
                .readTree(repoFile("helm/sluice/files/sluice-dashboard.json").toFile());
        Findings findings = new Findings();
        int queries = 0;
        for (JsonNode panel : panels(dashboard)) {
            for (JsonNode target : panel.path("targets")) {
                Set<String> legend =
                        matches(LEGEND_LABEL, target.path("legendFormat").asText(""));
                findings.check(
                        "panel '" + panel.path("title").asText() + "' query "
                                + target.path("refId").asText(),
                        target.path("expr").asText(),
                        legend);
                queries++;
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query")) {
                findings.checkLabelValues(
                        "variable $" + variable.path("name").asText(),
                        variable.path("definition").asText());
                queries++;
            }
        }
        Set<String> variables = new TreeSet<>();
        dashboard
                .path("templating")
                .path("list")
                .forEach(v -> variables.add(v.path("name").asText()));
        assertTrue(
                variables.containsAll(Set.of("protocol", "topic", "principal", "role")),
                "template variables: " + variables);
        findings.report("dashboard", queries);
    }

    @Test
    void throttleCountersNameTheMostThrottledRolesAndCountTheRestAsOther() {
        Set<String> roles = exposed.values("sluice_throttle_events_total", "role");
        Set<String> named = new TreeSet<>(roles);
        named.remove("_other");
        assertTrue(roles.contains("_other"), "three roles throttled, two named: the third is _other: " + roles);
        assertEquals(NAMED_IDENTITIES, named.size(), "named roles: " + roles);
        assertTrue(Set.of("alice", "bob", "carol").containsAll(named), "only the throttled roles: " + roles);
        assertEquals(
                Set.of(""),
                exposed.values("sluice_throttle_events_total", "principal"),
                "a Pulsar connection has a role, no principal");
    }

    @Test
    void everyAlertReadsWhatSluiceExports() throws Exception {
        JsonNode rules = new YAMLMapper()
                .readTree(repoFile("helm/sluice/files/sluice-alerts.yaml").toFile());
        Findings findings = new Findings();
        int alerts = 0;
        for (JsonNode group : rules.path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                Set<String> labels = new LinkedHashSet<>();
                rule.path("annotations").forEach(a -> labels.addAll(matches(ANNOTATION_LABEL, a.asText())));
                findings.check(
                        "alert " + rule.path("alert").asText(),
                        rule.path("expr").asText(),
                        labels);
                alerts++;
            }
        }
        findings.report("alert rules", alerts);
    }

    @Test
    void theNotYetExportedListIsStillTrue() {
        List<String> exportedNow =
                NOT_YET_EXPORTED.keySet().stream().filter(exposed::has).sorted().toList();
        assertEquals(
                List.of(),
                exportedNow,
                "Sluice exports these now: remove them from MonitoringContractIT.NOT_YET_EXPORTED"
                        + " and from docs/OPERATIONS.md (Metrics not yet exported)");
    }

    @Test
    void operationsMdListsTheSameMetricsAsNotExportedYet() throws Exception {
        String operations = Files.readString(repoFile("docs/OPERATIONS.md"));
        int section = operations.indexOf("### Metrics not exported yet");
        assertTrue(section >= 0, "docs/OPERATIONS.md has no 'Metrics not exported yet' section");
        int end = operations.indexOf("\n#", section + 1);
        String text = operations.substring(section, end < 0 ? operations.length() : end);
        assertEquals(
                new TreeSet<>(NOT_YET_EXPORTED.keySet()),
                new TreeSet<>(matches(Pattern.compile("`(sluice_[a-z_]+)`"), text)));
    }

    /** What the checks found: problems fail the test; uses of metrics not exported yet are printed. */
    private static final class Findings {

        private final List<String> problems = new ArrayList<>();
        private final Map<String, Set<String>> pending = new TreeMap<>();

        /** @param resultLabels the labels a legend or annotation takes from the result */
        void check(String where, String expression, Set<String> resultLabels) {
            Reads reads;
            try {
                reads = PromQl.read(expression.replace("$__rate_interval", "1m"));
            } catch (IllegalArgumentException e) {
                problems.add(where + ": " + e.getMessage());
                return;
            }
            if (reads.selectors().isEmpty()) {
                problems.add(where + ": reads no metric: " + expression);
            }
            Set<String> available = new TreeSet<>(TARGET_LABELS);
            boolean histogram = false;
            for (Selector selector : reads.selectors()) {
                histogram |= selector.metric().endsWith("_bucket");
                available.addAll(checkSelector(where, selector));
            }
            for (String label : reads.groupingLabels()) {
                if (!available.contains(label) && !(label.equals("le") && histogram)) {
                    problems.add(where + ": groups by '" + label + "', a label none of " + reads.metrics() + " has");
                }
            }
            Set<String> result = new TreeSet<>(reads.keptLabels().isEmpty() ? available : reads.keptLabels());
            result.removeAll(reads.droppedLabels());
            for (String label : resultLabels) {
                if (!result.contains(label)) {
                    problems.add(where + ": shows label '" + label + "', which its result does not have (it has "
                            + result + ")");
                }
            }
        }

        /** A Grafana {@code label_values(selector, label)} variable query. */
        void checkLabelValues(String where, String query) {
            java.util.regex.Matcher parts = LABEL_VALUES.matcher(query);
            if (!parts.matches()) {
                problems.add(where + ": not a label_values(selector, label) query: " + query);
                return;
            }
            check(where, parts.group(1), Set.of(parts.group(2)));
        }

        /** Checks one selector; answers the labels its series have. */
        private Set<String> checkSelector(String where, Selector selector) {
            String metric = selector.metric();
            if (SCRAPE_METRICS.contains(metric)) {
                return TARGET_LABELS;
            }
            if (!exposed.has(metric)) {
                if (NOT_YET_EXPORTED.containsKey(metric)) {
                    pending.computeIfAbsent(metric, m -> new TreeSet<>()).add(where);
                    Set<String> named = new TreeSet<>();
                    selector.matchers().forEach(m -> named.add(m.label()));
                    return named;
                }
                problems.add(where + ": Sluice exports no " + metric);
                return Set.of();
            }
            Set<String> labels = exposed.labels(metric);
            for (Matcher matcher : selector.matchers()) {
                if (TARGET_LABELS.contains(matcher.label())) {
                    continue;
                }
                if (!labels.contains(matcher.label())) {
                    problems.add(where + ": " + metric + " has no label '" + matcher.label() + "' (its labels: "
                            + labels + ")");
                    continue;
                }
                checkValues(where, metric, matcher);
            }
            return labels;
        }

        /** A value matched literally must be one Sluice writes: {@code signal="upstream_latency_p99"}. */
        private void checkValues(String where, String metric, Matcher matcher) {
            boolean literal = matcher.op().equals("=")
                    || matcher.op().equals("=~")
                            && PLAIN_ALTERNATIVES.matcher(matcher.value()).matches();
            if (!literal || matcher.value().contains("$")) {
                return;
            }
            Set<String> values = exposed.values(metric, matcher.label());
            for (String value : matcher.value().split("\\|")) {
                if (!values.contains(value)) {
                    problems.add(where + ": no " + metric + " series has " + matcher.label() + "=\"" + value
                            + "\" (values: " + values + ")");
                }
            }
        }

        void report(String what, int checked) {
            pending.forEach((metric, uses) -> System.out.println("Not exported by Sluice yet ("
                    + NOT_YET_EXPORTED.get(metric) + "): " + metric + ", used by " + String.join("; ", uses)));
            assertTrue(checked > 0, "no " + what + " found");
            assertTrue(
                    problems.isEmpty(),
                    what + ": " + problems.size() + " problems in " + checked + " expressions, which read"
                            + " what Sluice does not export:\n  " + String.join("\n  ", problems));
        }
    }

    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    private static Set<String> matches(Pattern pattern, String text) {
        Set<String> found = new LinkedHashSet<>();
        java.util.regex.Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    /** A file of the repository; the tests run in proxy-server/. */
    static Path repoFile(String relative) {
        Path root = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
        Path file = root.resolve(relative);
        assertTrue(Files.isRegularFile(file), "no " + file);
        return file;
    }
}
