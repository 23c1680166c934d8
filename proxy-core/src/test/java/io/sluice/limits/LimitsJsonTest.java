package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LimitsJsonTest {

    static final String REFERENCE_EXAMPLE = """
            {
              "topics":     { "persistent://public/default/orders": {
                  "publish":  { "messagesPerSecond": 1000, "bytesPerSecond": 1048576, "burstSeconds": 1.0 },
                  "dispatch": { "messagesPerSecond": 500,  "bytesPerSecond": null,    "burstSeconds": 1.0 },
                  "onExceed": "delay" } },
              "namespaces": { "public/default": { "publish": { "messagesPerSecond": 5000 }, "onExceed": "reject" } },
              "tenants":    { "public": { "dispatch": { "bytesPerSecond": 1e9, "burstSeconds": 0.5 }, "onExceed": "notify" } },
              "proxy":      { "publish": { "bytesPerSecond": 104857600 } },
              "connection": { "maxPendingSends": 100000, "maxHeldBytes": 67108864 }
            }
            """;

    static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    static String rejection(String json) {
        return assertThrows(InvalidSettingsException.class, () -> LimitsJson.parseDocument(bytes(json)))
                .getMessage();
    }

    @Test
    void readsTheSpecExample() {
        LimitsDocument doc = LimitsJson.parseDocument(bytes(REFERENCE_EXAMPLE));

        Limit orders = doc.topics().get("persistent://public/default/orders");
        assertEquals(new RateLimit(1000.0, 1048576.0, 1.0), orders.publish());
        assertEquals(new RateLimit(500.0, null, 1.0), orders.dispatch());
        assertEquals(OnExceed.DELAY, orders.onExceed());
        assertEquals(OnExceed.REJECT, doc.namespaces().get("public/default").onExceed());
        assertEquals(new RateLimit(null, 1e9, 0.5), doc.tenants().get("public").dispatch());
        assertEquals(OnExceed.NOTIFY, doc.tenants().get("public").onExceed());
        assertEquals(104857600.0, doc.proxy().publish().bytesPerSecond());
        assertNull(doc.proxy().dispatch());
        assertEquals(ConnectionLimits.DEFAULT, doc.connection());
    }

    @Test
    void absentFieldsTakeDefaults() {
        LimitsDocument doc = LimitsJson.parseDocument(bytes("{}"));
        assertEquals(LimitsDocument.empty(), doc);
        assertTrue(doc.topics().isEmpty()
                && doc.namespaces().isEmpty()
                && doc.tenants().isEmpty());
        assertNull(doc.proxy());
        assertEquals(new ConnectionLimits(100_000, 67_108_864), doc.connection());

        Limit limit = LimitsJson.parseLimit(bytes("{\"publish\": {}}"));
        assertEquals(new RateLimit(null, null, 1.0), limit.publish());
        assertEquals(OnExceed.DELAY, limit.onExceed());

        assertEquals(
                new ConnectionLimits(5, 67_108_864), LimitsJson.parseConnection(bytes("{\"maxPendingSends\": 5}")));
    }

    @Test
    void nullMeansUnlimitedOrDefault() {
        LimitsDocument doc = LimitsJson.parseDocument(bytes("""
                {"topics": null, "namespaces": null, "tenants": null, "proxy": null, "connection": null}"""));
        assertEquals(LimitsDocument.empty(), doc);
        Limit limit = LimitsJson.parseLimit(bytes("""
                {"publish": {"messagesPerSecond": null, "bytesPerSecond": null, "burstSeconds": null}, "dispatch": null, "onExceed": null}"""));
        assertEquals(new Limit(new RateLimit(null, null, 1.0), null, OnExceed.DELAY), limit);
        assertEquals(ConnectionLimits.DEFAULT, LimitsJson.parseConnection(bytes("{\"maxPendingSends\": null}")));
    }

    @Test
    void roundTripsThroughJson() {
        LimitsDocument doc = LimitsJson.parseDocument(bytes(REFERENCE_EXAMPLE));
        byte[] written = LimitsJson.write(doc);
        assertEquals(doc, LimitsJson.parseDocument(written));
        assertArrayEquals(written, LimitsJson.write(LimitsJson.parseDocument(written)), "output is stable");

        Limit limit = doc.namespaces().get("public/default");
        assertEquals(limit, LimitsJson.parseLimit(LimitsJson.write(limit)));
        ConnectionLimits connection = new ConnectionLimits(7, 8);
        assertEquals(connection, LimitsJson.parseConnection(LimitsJson.write(connection)));
    }

    @Test
    void writesPrettySortedJsonWithoutUnlimitedFields() {
        LimitsDocument doc = LimitsDocument.empty()
                .withLimit(
                        new ScopeRef(ScopeKind.PULSAR_TOPIC, "persistent://t/n/b"),
                        new Limit(new RateLimit(10.0, null, null), null, null))
                .withLimit(
                        new ScopeRef(ScopeKind.PULSAR_TOPIC, "persistent://t/n/a"),
                        new Limit(null, null, OnExceed.REJECT));
        String json = new String(LimitsJson.write(doc), StandardCharsets.UTF_8);
        assertEquals("""
                {
                  "topics": {
                    "persistent://t/n/a": {
                      "onExceed": "reject"
                    },
                    "persistent://t/n/b": {
                      "publish": {
                        "messagesPerSecond": 10.0,
                        "burstSeconds": 1.0
                      },
                      "onExceed": "delay"
                    }
                  },
                  "namespaces": { },
                  "tenants": { },
                  "connection": {
                    "maxPendingSends": 100000,
                    "maxHeldBytes": 67108864
                  },
                  "kafka": {
                    "topics": { },
                    "prefixes": { },
                    "clients": { }
                  }
                }""", json);
    }

    @Test
    void mapsAreSortedAndUnmodifiable() {
        LimitsDocument doc = new LimitsDocument(
                Map.of(
                        "persistent://t/n/z",
                        new Limit(null, null, null),
                        "persistent://t/n/a",
                        new Limit(null, null, null)),
                null,
                null,
                null,
                null,
                null);
        assertEquals(
                List.of("persistent://t/n/a", "persistent://t/n/z"),
                List.copyOf(doc.topics().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> doc.topics().clear());
        assertThrows(UnsupportedOperationException.class, () -> doc.namespaces().put("a/b", null));
        assertThrows(UnsupportedOperationException.class, () -> doc.tenants().remove("a"));
    }

    @Test
    void withersChangeACopy() {
        Limit limit = new Limit(new RateLimit(1.0, null, null), null, null);
        LimitsDocument doc = LimitsDocument.empty()
                .withLimit(new ScopeRef(ScopeKind.PULSAR_TOPIC, "persistent://t/n/x"), limit)
                .withLimit(new ScopeRef(ScopeKind.PULSAR_NAMESPACE, "t/n"), limit)
                .withLimit(new ScopeRef(ScopeKind.PULSAR_TENANT, "t"), limit)
                .withLimit(ScopeRef.PROXY, limit)
                .withConnection(new ConnectionLimits(1, 2));
        assertEquals(limit, doc.topics().get("persistent://t/n/x"));
        assertEquals(limit, doc.namespaces().get("t/n"));
        assertEquals(limit, doc.tenants().get("t"));
        assertEquals(limit, doc.proxy());
        assertEquals(new ConnectionLimits(1, 2), doc.connection());

        LimitsDocument cleared = doc.withLimit(new ScopeRef(ScopeKind.PULSAR_TOPIC, "persistent://t/n/x"), null)
                .withLimit(new ScopeRef(ScopeKind.PULSAR_NAMESPACE, "t/n"), null)
                .withLimit(new ScopeRef(ScopeKind.PULSAR_TENANT, "t"), null)
                .withLimit(ScopeRef.PROXY, null)
                .withConnection(null);
        assertEquals(LimitsDocument.empty(), cleared);
        assertEquals(limit, doc.proxy(), "the original is unchanged");

        assertEquals(
                "topics[\"bad\"]: must be a topic name persistent://tenant/namespace/topic"
                        + " or non-persistent://tenant/namespace/topic, got \"bad\"",
                assertThrows(
                                InvalidSettingsException.class,
                                () -> doc.withLimit(new ScopeRef(ScopeKind.PULSAR_TOPIC, "bad"), limit))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> new ScopeRef(ScopeKind.PULSAR_NAMESPACE, null));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "-1        | must be a positive finite number, got -1",
                "0         | must be a positive finite number, got 0",
                "-0.5      | must be a positive finite number, got -0.5",
                "1e400     | must be a positive finite number, got Infinity",
                "-1e400    | must be a positive finite number, got -Infinity",
                "1.1e12    | must be at most 1e12, got 1100000000000",
                "1e300     | must be at most 1e12, got 1.0E300",
                "'\"5\"'   | must be a number, got a string",
                "true      | must be a number, got a boolean",
                "[1]       | must be a number, got an array",
                "{}        | must be a number, got an object",
            })
    void rejectsBadRatesNamingThePath(String value, String problem) {
        String json = "{\"topics\": {\"persistent://a/b/c\": {\"publish\": {\"messagesPerSecond\": " + value + "}}}}";
        assertEquals("topics[\"persistent://a/b/c\"].publish.messagesPerSecond: " + problem, rejection(json));
    }

    @Test
    void acceptsTheLargestAndSmallestSensibleRates() {
        Limit limit =
                LimitsJson.parseLimit(bytes("{\"dispatch\": {\"messagesPerSecond\": 1e12, \"bytesPerSecond\": 1e-9}}"));
        assertEquals(1e12, limit.dispatch().messagesPerSecond());
        assertEquals(1e-9, limit.dispatch().bytesPerSecond());
    }

    @Test
    void rejectsNaNEvenWhenBuiltInCode() {
        InvalidSettingsException e =
                assertThrows(InvalidSettingsException.class, () -> new RateLimit(null, Double.NaN, null));
        assertEquals("bytesPerSecond: must be a positive finite number, got NaN", e.getMessage());
        assertEquals("bytesPerSecond", e.path());
        assertEquals("must be a positive finite number, got NaN", e.problem());
        // JSON has no NaN; the parser refuses it before any rule is checked.
        assertTrue(rejection("{\"proxy\": {\"dispatch\": {\"bytesPerSecond\": NaN}}}")
                .contains("malformed JSON"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0.009", "60.001", "-1", "1e400"})
    void rejectsBurstOutOfRange(String burst) {
        String json = "{\"namespaces\": {\"a/b\": {\"dispatch\": {\"messagesPerSecond\": 1, \"burstSeconds\": " + burst
                + "}}}}";
        assertTrue(
                rejection(json)
                        .startsWith("namespaces[\"a/b\"].dispatch.burstSeconds: must be between 0.01 and 60, got "),
                rejection(json));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.01, 0.5, 1, 60})
    void acceptsBurstInRange(double burst) {
        assertEquals(burst, new RateLimit(1.0, null, burst).burstSeconds());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"maxPendingSends\": 0}                     | maxPendingSends: must be a positive integer, got 0",
                "{\"maxHeldBytes\": -5}                       | maxHeldBytes: must be a positive integer, got -5",
                "{\"maxHeldBytes\": 1000000000001}            | maxHeldBytes: must be at most 1e12, got 1000000000001",
                "{\"maxPendingSends\": 1.5}                   | maxPendingSends: must be an integer, got a number with a fraction or exponent",
                "{\"maxPendingSends\": \"10\"}                | maxPendingSends: must be an integer, got a string",
                "{\"maxPendingSends\": 99999999999999999999}  | maxPendingSends: ",
                "{\"maxPending\": 1}                          | maxPending: unknown field; known fields are maxHeldBytes, maxPendingSends",
            })
    void rejectsBadConnectionLimits(String json, String message) {
        String got = assertThrows(InvalidSettingsException.class, () -> LimitsJson.parseConnection(bytes(json)))
                .getMessage();
        assertTrue(got.startsWith(message), got);
        String inDocument = rejection("{\"connection\": " + json + "}");
        assertTrue(inDocument.startsWith("connection." + message), inDocument);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"proxy\": {\"publish\": {\"messagesPerSecond\": 1, \"burst\": 2}}} | proxy.publish.burst: unknown field; known fields are burstSeconds, bytesPerSecond, messagesPerSecond",
                "{\"proxy\": {\"onExceed\": \"drop\"}}       | proxy.onExceed: must be one of \"delay\", \"reject\", \"notify\", got \"drop\"",
                "{\"proxy\": {\"onExceed\": \"DELAY\"}}      | proxy.onExceed: must be one of \"delay\", \"reject\", \"notify\", got \"DELAY\"",
                "{\"proxy\": {\"onExceed\": 0}}              | proxy.onExceed: must be one of \"delay\", \"reject\", \"notify\", got ",
                "{\"proxy\": {\"publish\": 5}}               | proxy.publish: must be a JSON object, got an integer",
                "{\"proxy\": []}                             | proxy: must be a JSON object, got an array",
                "{\"topics\": []}                            | topics: must be a JSON object, got an array",
                "{\"topics\": {\"persistent://a/b/c\": null}} | topics[\"persistent://a/b/c\"]: must be a limit object, got null",
                "{\"tenant\": {}}                            | tenant: unknown field; known fields are connection, kafka, namespaces, proxy, tenants, topics",
                "[]                                          | must be a JSON object, got an array",
                "null                                        | must be a JSON object, got null",
                "''                                          | must be a JSON object, got nothing",
                "{\"proxy\": {}} {}                          | unexpected content after the JSON value at line 1, column 15",
                "{\"proxy\": {}} x                           | malformed JSON at line 1, column 15: Unrecognized token 'x'",
                "{\"proxy\": {}, \"proxy\": {}}              | malformed JSON at line 1, column ",
                "{\"proxy\": {\"publish\": {\"messagesPerSecond\": 1,}}} | proxy.publish: malformed JSON at line 1, column 47: Unexpected character ('}'",
                "{\"proxy\": {\"publish\": {\"messagesPerSecond\": 1}}  | malformed JSON at line 1, column ",
                "{\"proxy\": {\"publish\": {\"messagesPerSecond\": 01}}}  | proxy.publish: malformed JSON at line 1, column 46: Invalid numeric value: Leading zeroes",
            })
    void rejectsBadStructureNamingThePath(String json, String message) {
        String got = rejection(json);
        assertTrue(got.startsWith(message), got);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "topics     | persistent://a/b                | must be a topic name",
                "topics     | persistent://a/b/c/d            | must be a topic name",
                "topics     | persistent://a//c               | must be a topic name",
                "topics     | persistent:///b/c               | must be a topic name",
                "topics     | persistent://a/b/               | must be a topic name",
                "topics     | persistant://a/b/c              | must be a topic name",
                "topics     | a/b/c                           | must be a topic name",
                "topics     | orders                          | must be a topic name",
                "topics     | persistent://a b/c/d            | must be a topic name",
                "namespaces | public                          | must be a namespace name tenant/namespace",
                "namespaces | public/default/x                | must be a namespace name tenant/namespace",
                "namespaces | /default                        | must be a namespace name tenant/namespace",
                "namespaces | public/                         | must be a namespace name tenant/namespace",
                "tenants    | a/b                             | must be a tenant name",
                "tenants    | ''                              | must be a tenant name",
                "tenants    | 'white space'                   | must be a tenant name",
            })
    void rejectsBadScopeNames(String field, String name, String problem) {
        String json = "{\"" + field + "\": {\"" + name + "\": {}}}";
        String got = rejection(json);
        assertTrue(got.startsWith(field + "[\"" + name + "\"]: " + problem), got);
        assertTrue(got.endsWith(", got \"" + name + "\""), got);
    }

    @Test
    void acceptsEveryValidNameForm() {
        LimitsDocument doc = LimitsJson.parseDocument(bytes("""
                {"topics": {"persistent://a/b/c": {}, "non-persistent://a/b/c": {}, "persistent://a/b/c-partition-7": {},
                            "persistent://my-tenant/ns.v2/topic:with=odd_chars.and spaces": {}},
                 "namespaces": {"a/b": {}, "my-tenant/ns.v2": {}},
                 "tenants": {"a": {}, "my_tenant-1": {}}}"""));
        assertEquals(4, doc.topics().size());
        assertEquals(2, doc.namespaces().size());
        assertEquals(2, doc.tenants().size());
    }
}
