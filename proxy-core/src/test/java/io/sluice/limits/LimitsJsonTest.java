package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LimitsJsonTest {

    /** The example of docs/REFERENCE.md with the test kinds' names, and a section. */
    static final String REFERENCE_EXAMPLE = """
            {
              "topics":     { "public/default/orders": {
                  "publish":  { "messagesPerSecond": 1000, "bytesPerSecond": 1048576, "burstSeconds": 1.0 },
                  "dispatch": { "messagesPerSecond": 500,  "bytesPerSecond": null,    "burstSeconds": 1.0 },
                  "onExceed": "delay" } },
              "namespaces": { "public/default": { "publish": { "messagesPerSecond": 5000 }, "onExceed": "reject" } },
              "tenants":    { "public": { "dispatch": { "bytesPerSecond": 1e9, "burstSeconds": 0.5 }, "onExceed": "notify" } },
              "proxy":      { "publish": { "bytesPerSecond": 104857600 } },
              "connection": { "maxPendingSends": 100000, "maxHeldBytes": 67108864 },
              "test":       { "clients": { "billing": { "publish": { "messagesPerSecond": 5 } } } }
            }
            """;

    static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    static LimitsDocument parse(String json) {
        return LimitsJson.parseDocument(bytes(json), TestScopes.CATALOGUE);
    }

    static byte[] write(LimitsDocument document) {
        return LimitsJson.write(document, TestScopes.CATALOGUE);
    }

    static String rejection(String json) {
        return assertThrows(InvalidSettingsException.class, () -> parse(json)).getMessage();
    }

    @Test
    void readsTheSpecExample() {
        LimitsDocument doc = parse(REFERENCE_EXAMPLE);

        Limit orders = doc.limitsOf(TestScopes.TOPIC).get("public/default/orders");
        assertEquals(new RateLimit(1000.0, 1048576.0, 1.0, null), orders.publish());
        assertEquals(new RateLimit(500.0, null, 1.0, null), orders.dispatch());
        assertEquals(OnExceed.DELAY, orders.onExceed());
        assertEquals(
                OnExceed.REJECT,
                doc.limitsOf(TestScopes.NAMESPACE).get("public/default").onExceed());
        assertEquals(
                new RateLimit(null, 1e9, 0.5, null),
                doc.limitsOf(TestScopes.TENANT).get("public").dispatch());
        assertEquals(
                OnExceed.NOTIFY, doc.limitsOf(TestScopes.TENANT).get("public").onExceed());
        assertEquals(104857600.0, doc.proxy().publish().bytesPerSecond());
        assertNull(doc.proxy().dispatch());
        assertEquals(ConnectionLimits.DEFAULT, doc.connection());
        assertEquals(
                5.0,
                doc.limitOf(TestScopes.ref(TestScopes.CLIENT, "billing"))
                        .publish()
                        .messagesPerSecond());
        assertEquals(doc.proxy(), doc.limitOf(ScopeRef.PROXY));
    }

    @Test
    void absentFieldsTakeDefaults() {
        LimitsDocument doc = parse("{}");
        assertEquals(LimitsDocument.empty(), doc);
        assertTrue(doc.limitsOf(TestScopes.TOPIC).isEmpty()
                && doc.limitsOf(TestScopes.NAMESPACE).isEmpty()
                && doc.limitsOf(TestScopes.TENANT).isEmpty());
        assertEquals(LimitsDocument.empty(), parse("{\"test\": {}}"));
        assertNull(doc.proxy());
        assertEquals(new ConnectionLimits(100_000, 67_108_864), doc.connection());

        Limit limit = LimitsJson.parseLimit(bytes("{\"publish\": {}}"));
        assertEquals(new RateLimit(null, null, 1.0, null), limit.publish());
        assertEquals(OnExceed.DELAY, limit.onExceed());

        assertEquals(
                new ConnectionLimits(5, 67_108_864), LimitsJson.parseConnection(bytes("{\"maxPendingSends\": 5}")));
    }

    @Test
    void nullMeansUnlimitedOrDefault() {
        LimitsDocument doc = parse("""
                {"topics": null, "namespaces": null, "tenants": null, "proxy": null, "connection": null, "test": null}""");
        assertEquals(LimitsDocument.empty(), doc);
        Limit limit = LimitsJson.parseLimit(bytes("""
                {"publish": {"messagesPerSecond": null, "bytesPerSecond": null, "burstSeconds": null}, "dispatch": null, "onExceed": null}"""));
        assertEquals(Limit.publish(new RateLimit(null, null, 1.0, null)).withOnExceed(OnExceed.DELAY), limit);
        assertEquals(ConnectionLimits.DEFAULT, LimitsJson.parseConnection(bytes("{\"maxPendingSends\": null}")));
    }

    @Test
    void roundTripsThroughJson() {
        LimitsDocument doc = parse(REFERENCE_EXAMPLE);
        byte[] written = write(doc);
        assertEquals(doc, LimitsJson.parseDocument(written, TestScopes.CATALOGUE));
        assertArrayEquals(written, write(LimitsJson.parseDocument(written, TestScopes.CATALOGUE)), "output is stable");

        Limit limit = doc.limitsOf(TestScopes.NAMESPACE).get("public/default");
        assertEquals(limit, LimitsJson.parseLimit(LimitsJson.write(limit)));
        ConnectionLimits connection = new ConnectionLimits(7, 8);
        assertEquals(connection, LimitsJson.parseConnection(LimitsJson.write(connection)));
    }

    @Test
    void writesPrettySortedJsonWithoutUnlimitedFields() {
        LimitsDocument doc = LimitsDocument.empty()
                .withLimit(
                        new ScopeRef(TestScopes.TOPIC, "t/n/b"), Limit.publish(new RateLimit(10.0, null, null, null)))
                .withLimit(new ScopeRef(TestScopes.TOPIC, "t/n/a"), Limit.NONE.withOnExceed(OnExceed.REJECT));
        String json = new String(write(doc), StandardCharsets.UTF_8);
        assertEquals("""
                {
                  "topics": {
                    "t/n/a": {
                      "onExceed": "reject"
                    },
                    "t/n/b": {
                      "publish": {
                        "messagesPerSecond": 10.0,
                        "burstSeconds": 1.0
                      },
                      "onExceed": "delay"
                    }
                  },
                  "namespaces": { },
                  "tenants": { },
                  "ips": { },
                  "connection": {
                    "maxPendingSends": 100000,
                    "maxHeldBytes": 67108864
                  },
                  "test": {
                    "clients": { }
                  }
                }""", json);
    }

    @Test
    void mapsAreSortedAndUnmodifiable() {
        LimitsDocument doc = parse("{\"topics\": {\"t/n/z\": {}, \"t/n/a\": {}}}");
        assertEquals(
                List.of("t/n/a", "t/n/z"),
                List.copyOf(doc.limitsOf(TestScopes.TOPIC).keySet()));
        assertThrows(
                UnsupportedOperationException.class,
                () -> doc.limitsOf(TestScopes.TOPIC).clear());
        assertThrows(
                UnsupportedOperationException.class,
                () -> doc.limitsOf(TestScopes.NAMESPACE).put("a/b", null));
        assertThrows(
                UnsupportedOperationException.class,
                () -> doc.limitsOf(TestScopes.TENANT).remove("a"));
    }

    @Test
    void withersChangeACopy() {
        Limit limit = Limit.publish(new RateLimit(1.0, null, null, null));
        LimitsDocument doc = LimitsDocument.empty()
                .withLimit(new ScopeRef(TestScopes.TOPIC, "t/n/x"), limit)
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "t/n"), limit)
                .withLimit(new ScopeRef(TestScopes.TENANT, "t"), limit)
                .withLimit(new ScopeRef(TestScopes.CLIENT, "c"), limit)
                .withLimit(ScopeRef.PROXY, limit)
                .withConnection(new ConnectionLimits(1, 2));
        assertEquals(limit, doc.limitsOf(TestScopes.TOPIC).get("t/n/x"));
        assertEquals(limit, doc.limitsOf(TestScopes.NAMESPACE).get("t/n"));
        assertEquals(limit, doc.limitsOf(TestScopes.TENANT).get("t"));
        assertEquals(limit, doc.limitOf(new ScopeRef(TestScopes.CLIENT, "c")));
        assertEquals(limit, doc.proxy());
        assertEquals(new ConnectionLimits(1, 2), doc.connection());

        LimitsDocument cleared = doc.withLimit(new ScopeRef(TestScopes.TOPIC, "t/n/x"), null)
                .withLimit(new ScopeRef(TestScopes.NAMESPACE, "t/n"), null)
                .withLimit(new ScopeRef(TestScopes.TENANT, "t"), null)
                .withLimit(new ScopeRef(TestScopes.CLIENT, "c"), null)
                .withLimit(ScopeRef.PROXY, null)
                .withConnection(null);
        assertEquals(LimitsDocument.empty(), cleared);
        assertEquals(LimitsDocument.empty().hashCode(), cleared.hashCode());
        assertEquals(limit, doc.proxy(), "the original is unchanged");

        assertEquals(
                "topics[\"bad\"]: must be a topic tenant/namespace/topic, got \"bad\"",
                assertThrows(
                                InvalidSettingsException.class,
                                () -> doc.withLimit(new ScopeRef(TestScopes.TOPIC, "bad"), limit))
                        .getMessage());
        assertEquals(
                "test.clients[\"\"]",
                assertThrows(
                                InvalidSettingsException.class,
                                () -> doc.withLimit(new ScopeRef(TestScopes.CLIENT, ""), limit))
                        .path());
        assertEquals(
                "proxy[\"other\"]: must be \"proxy\", got \"other\"",
                assertThrows(
                                InvalidSettingsException.class,
                                () -> doc.withLimit(new ScopeRef(ScopeKind.PROXY, "other"), limit))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> new ScopeRef(TestScopes.NAMESPACE, null));
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
        String json = "{\"topics\": {\"a/b/c\": {\"publish\": {\"messagesPerSecond\": " + value + "}}}}";
        assertEquals("topics[\"a/b/c\"].publish.messagesPerSecond: " + problem, rejection(json));
        String inSection = "{\"test\": {\"clients\": {\"c\": {\"dispatch\": {\"bytesPerSecond\": " + value + "}}}}}";
        assertEquals("test.clients[\"c\"].dispatch.bytesPerSecond: " + problem, rejection(inSection));
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
                assertThrows(InvalidSettingsException.class, () -> new RateLimit(null, Double.NaN, null, null));
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
        assertEquals(burst, new RateLimit(1.0, null, burst, null).burstSeconds());
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
                "{\"proxy\": {\"publish\": {\"messagesPerSecond\": 1, \"burst\": 2}}} | proxy.publish.burst: unknown field; known fields are adaptive, burstSeconds, bytesPerSecond, messagesPerSecond",
                "{\"proxy\": {\"onExceed\": \"drop\"}}       | proxy.onExceed: must be one of \"delay\", \"reject\", \"notify\", got \"drop\"",
                "{\"proxy\": {\"onExceed\": \"DELAY\"}}      | proxy.onExceed: must be one of \"delay\", \"reject\", \"notify\", got \"DELAY\"",
                "{\"proxy\": {\"onExceed\": 0}}              | proxy.onExceed: must be one of \"delay\", \"reject\", \"notify\", got ",
                "{\"proxy\": {\"publish\": 5}}               | proxy.publish: must be a JSON object, got an integer",
                "{\"proxy\": []}                             | proxy: must be a JSON object, got an array",
                "{\"topics\": []}                            | topics: must be a JSON object, got an array",
                "{\"topics\": {\"a/b/c\": null}}          | topics[\"a/b/c\"]: must be a limit object, got null",
                "{\"tenant\": {}}                            | tenant: unknown field; known fields are connection, ips, namespaces, proxy, tenants, test, topics",
                "{\"test\": {\"client\": {}}}               | test.client: unknown field; known fields are clients",
                "{\"test\": []}                              | test: must be a JSON object, got an array",
                "{\"test\": {\"clients\": 5}}               | test.clients: must be a JSON object, got an integer",
                "{\"test\": {\"clients\": {\"\": {}}}}      | test.clients[\"\"]: must be a client name, got \"\"",
                "{\"test\": {\"clients\": {}, \"clients\": {}}} | test: malformed JSON at line 1, column ",
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
                "{\"messagesPerSecond\": 1000, \"adaptive\": {}}                     | topics[\"a/b/c\"].publish.adaptive.targetLatencyMillis: is required",
                "{\"messagesPerSecond\": 1000, \"adaptive\": {\"targetLatencyMillis\": 0}} | topics[\"a/b/c\"].publish.adaptive.targetLatencyMillis: must be between 0.1 and 60000, got 0",
                "{\"messagesPerSecond\": 1000, \"adaptive\": {\"targetLatencyMillis\": 1e9}} | topics[\"a/b/c\"].publish.adaptive.targetLatencyMillis: must be between 0.1 and 60000, got 1000000000",
                "{\"messagesPerSecond\": 1000, \"adaptive\": {\"targetLatencyMillis\": 20, \"floorFraction\": 0}} | topics[\"a/b/c\"].publish.adaptive.floorFraction: must be between 0.001 and 1, got 0",
                "{\"messagesPerSecond\": 1000, \"adaptive\": {\"targetLatencyMillis\": 20, \"floorFraction\": 1.5}} | topics[\"a/b/c\"].publish.adaptive.floorFraction: must be between 0.001 and 1, got 1.5",
                "{\"messagesPerSecond\": 1000, \"adaptive\": {\"targetLatencyMillis\": \"20ms\"}} | topics[\"a/b/c\"].publish.adaptive.targetLatencyMillis: must be a number, got a string",
                "{\"messagesPerSecond\": 1000, \"adaptive\": {\"targetLatencyMillis\": 20, \"target\": 20}}       | topics[\"a/b/c\"].publish.adaptive.target: unknown field; known fields are floorFraction, targetLatencyMillis",
                "{\"burstSeconds\": 2, \"adaptive\": {\"targetLatencyMillis\": 20}}   | topics[\"a/b/c\"].publish.adaptive: needs a ceiling: messagesPerSecond or bytesPerSecond, or both",
            })
    void rejectsBadAdaptiveLimitsNamingTheField(String publish, String message) {
        String got = rejection("{\"topics\": {\"a/b/c\": {\"publish\": " + publish + "}}}");
        assertTrue(got.startsWith(message), got);
    }

    @Test
    void adaptiveRatesArePublishOnly() {
        String got = rejection("{\"topics\": {\"a/b/c\": {\"dispatch\": {\"messagesPerSecond\": 10,"
                + " \"adaptive\": {\"targetLatencyMillis\": 20}}}}}");
        assertTrue(
                got.startsWith("topics[\"a/b/c\"].dispatch.adaptive: adaptive rates follow the upstream's publish"
                        + " latency: publish only"),
                got);
    }

    @Test
    void anAdaptiveLimitRoundTripsWithItsDefaultFloor() {
        LimitsDocument document = LimitsJson.parseDocument(
                bytes("{\"topics\": {\"a/b/c\": {\"publish\": {\"messagesPerSecond\": 50000,"
                        + " \"adaptive\": {\"targetLatencyMillis\": 20}}}}}"),
                TestScopes.CATALOGUE);
        AdaptiveLimit adaptive = document.limitInForce(new ScopeRef(TestScopes.TOPIC, "a/b/c"))
                .publish()
                .adaptive();
        assertEquals(new AdaptiveLimit(20.0, 0.05), adaptive);
        LimitsDocument again =
                LimitsJson.parseDocument(LimitsJson.write(document, TestScopes.CATALOGUE), TestScopes.CATALOGUE);
        assertEquals(document, again);
    }

    @Test
    void ofSeveralProblemsTheOneARecordsReaderFindsFirstIsReported() {
        assertEquals(
                "test.clients[\"\"]: must be a client name, got \"\"",
                rejection("{\"test\": {\"clients\": {\"\": {}}, \"x\": 1}, \"unknown\": 1}"),
                "a section's names when it ends, before its unknown fields and the next field");
        assertTrue(
                rejection("{\"unknown\": 1, \"topics\": {\"bad\": {}}}").startsWith("topics[\"bad\"]"),
                "the top level's names once every field is read, before its unknown fields");
        assertTrue(rejection("{\"topics\": {\"bad\": {}}, \"namespaces\": {\"bad\": {}}}")
                .startsWith("topics[\"bad\"]"));
        assertEquals(
                "proxy.publish: must be a JSON object, got an integer",
                rejection("{\"unknown\": 1, \"proxy\": {\"publish\": 5}}"),
                "an unknown field is read through and reported at the end");
        assertTrue(
                rejection("{\"unknown\": {\"a\": 1, \"a\": 2}}").startsWith("malformed JSON at line 1, column 25"),
                "but read as JSON");
        assertTrue(rejection("{\"unknown\": 1, \"other\": 2}").startsWith("unknown: unknown field"));
    }

    @Test
    void aDocumentWithAKindTheCatalogueLacksIsNotWritten() {
        ScopeCatalogue withoutClients = ScopeCatalogue.of(new ProtocolScopes(
                "test",
                List.of(TestScopes.TOPIC, TestScopes.NAMESPACE, TestScopes.TENANT),
                TestScopes::topicScopes,
                List.of()));
        LimitsDocument doc = LimitsDocument.empty().withLimit(new ScopeRef(TestScopes.CLIENT, "c"), Limit.NONE);
        assertThrows(IllegalArgumentException.class, () -> LimitsJson.write(doc, withoutClients));
        assertFalse(new String(LimitsJson.write(LimitsDocument.empty(), withoutClients), StandardCharsets.UTF_8)
                .contains("\"test\""));
        assertEquals(
                "test: unknown field; known fields are connection, ips, namespaces, proxy, tenants, topics",
                assertThrows(
                                InvalidSettingsException.class,
                                () -> LimitsJson.parseDocument(bytes("{\"test\": {}}"), withoutClients))
                        .getMessage());
    }
}
