package io.sluice.server;

import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.Direction;
import io.sluice.limits.LimitPart;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.BucketKey;
import io.sluice.quota.Dimension;
import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The limits files Sluice has written, read and written through the server's scope catalogue:
 * a file of release 0.1.0 (Pulsar only, at the top level) and one of today (with the {@code kafka}
 * section) load unchanged, and each writes out byte for byte as this release's predecessor wrote it.
 */
class LimitsFilesTest {

    private static final ScopeCatalogue SERVER = SluiceServer.scopeCatalogue();

    @TempDir
    Path dir;

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = LimitsFilesTest.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    private static LimitsDocument parse(byte[] json) {
        return LimitsJson.parseDocument(json, SERVER);
    }

    @Test
    void aFileWrittenByTheFirstReleaseLoadsUnchanged() throws IOException {
        LimitsDocument doc = parse(resource("limits-file-0.1.0.json"));
        assertEquals(3, doc.limitsOf(PulsarScopes.TOPIC).size());
        assertEquals(
                500.0,
                doc.limitsOf(PulsarScopes.TOPIC)
                        .get("persistent://public/default/orders")
                        .publish()
                        .messagesPerSecond());
        assertEquals(
                OnExceed.NOTIFY,
                doc.limitsOf(PulsarScopes.TOPIC)
                        .get("non-persistent://acme/metrics/cpu")
                        .onExceed());
        assertEquals(
                2.0,
                doc.limitsOf(PulsarScopes.NAMESPACE)
                        .get("public/default")
                        .publish()
                        .burstSeconds());
        assertEquals(
                5000.0,
                doc.limitsOf(PulsarScopes.TENANT).get("public").dispatch().messagesPerSecond());
        assertEquals(100000.0, doc.proxy().publish().messagesPerSecond());
        assertEquals(new ConnectionLimits(50_000, 33_554_432), doc.connection());
        for (ScopeKind kind : KafkaScopes.DECLARED.kinds()) {
            assertEquals(0, doc.limitsOf(kind).size(), kind.toString());
        }
        assertArrayEquals(
                resource("limits-file-0.1.0-as-written-since-groups.json"),
                LimitsJson.write(doc, SERVER),
                "written back as every release since limits by consumer group writes it");
        assertEquals(doc, parse(LimitsJson.write(doc, SERVER)));
    }

    @Test
    void aFileWrittenBeforeScopesWereDataLoadsAndWritesByteForByte() throws IOException {
        byte[] file = resource("limits-file-today.json");
        LimitsDocument doc = parse(file);
        assertEquals(
                0.5,
                doc.limitOf(new ScopeRef(KafkaScopes.PREFIX, "team-a.orders"))
                        .publish()
                        .messagesPerSecond());
        assertEquals(
                OnExceed.REJECT,
                doc.limitOf(new ScopeRef(KafkaScopes.CLIENT, "billing-service")).onExceed());
        assertEquals(
                1e-9,
                doc.limitOf(new ScopeRef(KafkaScopes.CLIENT, "café / eu \"1\""))
                        .publish()
                        .messagesPerSecond());
        assertEquals(
                1.5e9,
                doc.limitOf(new ScopeRef(PulsarScopes.NAMESPACE, "acme/metrics"))
                        .dispatch()
                        .bytesPerSecond());
        assertEquals(60.0, doc.proxy().dispatch().burstSeconds());
        // Written with the identity, address and group kinds' empty fields since they exist, and byte for byte from
        // then on.
        byte[] since = resource("limits-file-today-as-written-since-groups.json");
        assertArrayEquals(since, LimitsJson.write(doc, SERVER));
        assertArrayEquals(since, LimitsJson.write(parse(since), SERVER));
        for (String written : List.of("identities", "ips")) {
            assertArrayEquals(
                    since,
                    LimitsJson.write(
                            parse(resource("limits-file-today-as-written-since-" + written + ".json")), SERVER));
        }
        for (String written : List.of("kafka", "identities", "ips")) {
            assertArrayEquals(
                    resource("limits-file-0.1.0-as-written-since-groups.json"),
                    LimitsJson.write(
                            parse(resource("limits-file-0.1.0-as-written-since-" + written + ".json")), SERVER));
        }
    }

    @Test
    void anEmptyDocumentIsWrittenAsBefore() {
        assertEquals("""
                {
                  "topics": { },
                  "namespaces": { },
                  "tenants": { },
                  "roles": { },
                  "ips": { },
                  "connection": {
                    "maxPendingSends": 100000,
                    "maxHeldBytes": 67108864
                  },
                  "kafka": {
                    "topics": { },
                    "prefixes": { },
                    "clients": { },
                    "principals": { },
                    "groups": { }
                  }
                }""", new String(LimitsJson.write(LimitsDocument.empty(), SERVER), StandardCharsets.UTF_8));
    }

    @Test
    void theStoreLoadsBothFilesWithoutWritingThem() throws IOException {
        for (String name : List.of("limits-file-0.1.0.json", "limits-file-today.json")) {
            Path file = dir.resolve(name);
            Files.write(file, resource(name));
            AtomicReference<LimitsDocument> inForce = new AtomicReference<>();
            LimitsStore store = LimitsStore.open(file, SERVER, inForce::set);
            assertEquals(parse(resource(name)), inForce.get());
            assertEquals(store.current(), inForce.get());
            assertArrayEquals(resource(name), Files.readAllBytes(file), name + " is left as it was");
        }
    }

    @Test
    void errorsNameTheFieldsOfBothFrontEnds() {
        assertEquals(
                "tenant: unknown field; known fields are connection, ips, kafka, namespaces, proxy, roles, tenants, topics",
                rejection("{\"tenant\": {}}"));
        assertEquals(
                "kafka.topic: unknown field; known fields are clients, groups, prefixes, principals, topics",
                rejection("{\"kafka\": {\"topic\": {}}}"));
        assertEquals(
                "kafka.prefixes[\"x y\"]: must be a topic name prefix of 1 to 249 characters [a-zA-Z0-9._-], got"
                        + " \"x y\"",
                rejection("{\"kafka\": {\"prefixes\": {\"x y\": {}}}}"));
        assertEquals(
                "kafka.prefixes[\"x\"].publish: must be a JSON object, got an integer",
                rejection("{\"kafka\": {\"prefixes\": {\"x\": {\"publish\": 5}}}}"));
        assertEquals(
                "topics[\"orders\"]: must be a topic name persistent://tenant/namespace/topic or"
                        + " non-persistent://tenant/namespace/topic, got \"orders\"",
                rejection("{\"topics\": {\"orders\": {}}}"));
    }

    private static String rejection(String json) {
        return assertThrows(InvalidSettingsException.class, () -> parse(json.getBytes(StandardCharsets.UTF_8)))
                .getMessage();
    }

    @Test
    void everyErrorIsTheOneSluiceGaveBeforeScopesWereData() throws IOException {
        List<String> cases = new String(resource("limits-errors.tsv"), StandardCharsets.UTF_8)
                .lines()
                .filter(line -> !line.startsWith("#"))
                .toList();
        for (String line : cases) {
            int tab = line.indexOf('\t');
            byte[] input = Base64.getDecoder().decode(line.substring(0, tab));
            String expected = unescaped(line.substring(tab + 1));
            InvalidSettingsException e = assertThrows(InvalidSettingsException.class, () -> parse(input), expected);
            assertEquals(expected, e.getMessage(), new String(input, StandardCharsets.UTF_8));
        }
        assertEquals(330, cases.size());
    }

    /** The message as the file writes it: backslash, tab, carriage return and newline escaped. */
    private static String unescaped(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == text.length()) {
                out.append(c);
                continue;
            }
            char next = text.charAt(++i);
            out.append(
                    switch (next) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        default -> next;
                    });
        }
        return out.toString();
    }

    @Test
    void everyKindKeepsTheBucketIdsTheClusterStoreKnows() {
        assertEquals(
                List.of(
                        "publish messages pulsar_topic persistent://t/n/x",
                        "publish messages pulsar_namespace t/n",
                        "publish messages pulsar_tenant t",
                        "publish messages pulsar_role x",
                        "publish messages proxy proxy",
                        "publish messages kafka_topic x",
                        "publish messages kafka_prefix x",
                        "publish messages kafka_client x",
                        "publish messages kafka_principal x"),
                SERVER.kinds().stream()
                        .filter(kind -> kind.accepts().contains(LimitPart.PUBLISH))
                        .map(kind -> new BucketKey(
                                        Direction.PUBLISH,
                                        new ScopeRef(kind, kind.named() ? example(kind) : kind.soleName()),
                                        Dimension.MESSAGES)
                                .id())
                        .toList());
        assertEquals(
                "dispatch bytes proxy proxy", new BucketKey(Direction.DISPATCH, ScopeRef.PROXY, Dimension.BYTES).id());
        assertEquals(
                "accept connections ip 10.1.0.0/16",
                new BucketKey(Direction.ACCEPT, new ScopeRef(ScopeKind.IPS, "10.1.0.0/16"), Dimension.CONNECTIONS)
                        .id());
        assertEquals(
                "group joins kafka_group orders-*",
                new BucketKey(Direction.GROUP, new ScopeRef(KafkaScopes.GROUP, "orders-*"), Dimension.JOINS).id());
        assertEquals(
                "group commits kafka_group orders",
                new BucketKey(Direction.GROUP, new ScopeRef(KafkaScopes.GROUP, "orders"), Dimension.COMMITS).id());
    }

    private static String example(ScopeKind kind) {
        return switch (kind.id()) {
            case "pulsar_topic" -> "persistent://t/n/x";
            case "pulsar_namespace" -> "t/n";
            case "pulsar_tenant" -> "t";
            default -> "x";
        };
    }
}
