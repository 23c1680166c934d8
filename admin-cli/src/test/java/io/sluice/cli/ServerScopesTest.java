package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.NameParameter;
import io.sluice.limits.NameRule;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.ProtocolScopes;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI's scopes are the ones the server lists, whatever its front ends. */
class ServerScopesTest {

    private static final ScopeCatalogue SERVER = ScopeCatalogue.of(PulsarScopes.DECLARED, KafkaScopes.DECLARED);

    @Test
    void theScopesAreTheServersInTheDocumentsOrder() {
        assertEquals(
                "topic, namespace, tenant, role, ip, proxy, connection, kafka-topic, kafka-prefix, kafka-client,"
                        + " kafka-principal, kafka-group",
                Scopes.SERVED.names());
        assertEquals(
                "unknown scope 'subscription'; scopes are topic, namespace, tenant, role, ip, proxy, connection,"
                        + " kafka-topic, kafka-prefix, kafka-client, kafka-principal, kafka-group",
                assertThrows(CliFailure.class, () -> Scopes.SERVED.parse("subscription"))
                        .getMessage());
        assertTrue(Scopes.SERVED.parse("connection").isConnection());
        assertFalse(Scopes.SERVED.parse("proxy").named());
        assertEquals("kafka-prefix", Scopes.SERVED.atField("kafka.prefixes").name());
        assertTrue(Scopes.SERVED.isSection("kafka"));
        assertFalse(Scopes.SERVED.isSection("topics"));
    }

    @Test
    void theNormalFormIsTheServersForEveryDocumentItTakes() throws IOException {
        String document = """
                {"kafka": {"clients": {"b": {"publish": {"messagesPerSecond": 5}}}},
                 "topics": {"persistent://t/n/x": {"dispatch": {"bytesPerSecond": 1e6}}}, "proxy": {}}""";
        JsonNode normal = LimitsNormalForm.of(document.getBytes(StandardCharsets.UTF_8), "limits.json", Scopes.SERVED);
        byte[] servers =
                LimitsJson.write(LimitsJson.parseDocument(document.getBytes(StandardCharsets.UTF_8), SERVER), SERVER);
        assertEquals(Json.read(servers), normal);
        assertArrayEquals(
                servers,
                LimitsJson.write(
                        LimitsJson.parseDocument(document.getBytes(StandardCharsets.UTF_8), Scopes.SERVED.catalogue()),
                        Scopes.SERVED.catalogue()),
                "byte for byte");
    }

    @Test
    void everyFieldAndValueIsJudgedAsTheServerJudgesItButNames() {
        for (String bad : List.of(
                "{\"tenant\": {}}",
                "{\"kafka\": {\"topic\": {}}}",
                "{\"kafka\": {\"prefixes\": {\"x\": {\"publish\": {\"messagesPerSecond\": -1}}}}}",
                "{\"topics\": {\"persistent://a/b/c\": {\"onExceed\": \"drop\"}}}",
                "{\"proxy\": {}, \"proxy\": {}}")) {
            String server = assertThrows(
                            IllegalArgumentException.class,
                            () -> LimitsJson.parseDocument(bad.getBytes(StandardCharsets.UTF_8), SERVER))
                    .getMessage();
            String cli = assertThrows(
                            CliFailure.class,
                            () -> LimitsNormalForm.of(bad.getBytes(StandardCharsets.UTF_8), "f", Scopes.SERVED))
                    .getMessage();
            assertEquals("f is not a valid limits document: " + server, cli);
        }
        LimitsNormalForm.of("{\"topics\": {\"orders\": {}}}".getBytes(StandardCharsets.UTF_8), "f", Scopes.SERVED);
    }

    @Test
    void aServerWithAThirdFrontEndJustWorks() {
        ScopeKind channel = ScopeKind.builder("line", "channel")
                .field("line", "channels")
                .cliName("line-channel")
                .named(
                        NameTemplate.of("{group}/{channel}", NameParameter.of("group"), NameParameter.of("channel")),
                        NameRule.ANY,
                        "news/sports")
                .rank(10)
                .description("one channel")
                .build();
        ScopeCatalogue server = ScopeCatalogue.of(
                PulsarScopes.DECLARED,
                KafkaScopes.DECLARED,
                new ProtocolScopes("line", List.of(channel), topic -> List.of(), List.of()));
        ServerScopes scopes = Scopes.served(server);

        LimitScope scope = scopes.parse("line-channel");
        assertEquals("/api/v1/limits/line/channels/news/sports%20eu", scope.path("news/sports eu"));
        assertEquals("line-channel news/sports", scope.describe("news/sports"));
        assertThrows(CliFailure.class, () -> scope.path("news"));
        assertTrue(scopes.names().endsWith("kafka-group, line-channel"), scopes.names());
        byte[] document = LimitsJson.write(
                LimitsDocument.empty().withLimit(new ScopeRef(channel, "news/sports"), Limit.NONE), server);
        List<DocumentScopes.Entry> entries = DocumentScopes.list(scopes, readTree(document));
        assertTrue(
                entries.stream().anyMatch(entry -> entry.label().equals("line-channel news/sports")),
                entries.toString());
        assertEquals(
                readTree(document), LimitsNormalForm.of(document, "f", scopes), "its section is read as the server's");
    }

    @Test
    void anAnswerThatIsNoListOfScopesIsRefused() {
        assertThrows(CliFailure.class, () -> ServerScopes.read(Json.MAPPER.createObjectNode()));
        assertThrows(
                CliFailure.class,
                () -> ServerScopes.read(Json.MAPPER.createArrayNode().add(Json.MAPPER.createObjectNode())));
    }

    private static JsonNode readTree(byte[] json) {
        try {
            return Json.read(json);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
