package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.limits.NameRule;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.ProtocolScopes;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The scopes a Sluice serves limits for, as its {@code GET /api/v1/scopes} lists them, in the order
 * of the limits document. The CLI knows no front end of its own: whatever scopes the server has,
 * the commands take.
 */
final class ServerScopes {

    /** Where the server lists its scopes. */
    static final String PATH = "/api/v1/scopes";

    private final List<LimitScope> scopes;

    private ServerScopes(List<LimitScope> scopes) {
        this.scopes = List.copyOf(scopes);
    }

    /** The scopes of the server {@code client} talks to. @throws CliFailure when it lists none */
    static ServerScopes of(AdminClient client) {
        JsonNode answer = client.getIfPresent(PATH);
        if (answer == null) {
            throw CliFailure.refused("the server lists no scopes (GET " + PATH + " answered 404); it is a Sluice"
                    + " older than this CLI, or not Sluice's admin API");
        }
        return read(answer);
    }

    /**
     * The scopes of an answer of {@code GET /api/v1/scopes}.
     *
     * @throws CliFailure (refused) when it is not a list of scopes
     */
    static ServerScopes read(JsonNode answer) {
        if (!answer.isArray()) {
            throw notScopes();
        }
        List<LimitScope> scopes = new ArrayList<>();
        for (JsonNode entry : answer) {
            String name = text(entry, "scope");
            String field = text(entry, "field");
            String path = text(entry, "path");
            String template = entry.path("nameTemplate").textValue();
            if (name == null || field == null || path == null) {
                throw notScopes();
            }
            NameTemplate nameTemplate;
            try {
                nameTemplate = template == null ? null : NameTemplate.parse(template);
            } catch (IllegalArgumentException e) {
                throw notScopes();
            }
            scopes.add(new LimitScope(
                    name,
                    text(entry, "protocol"),
                    entry.path("label").asText(name),
                    field,
                    path,
                    nameTemplate,
                    text(entry, "example"),
                    entry.path("description").asText(""),
                    "connection".equals(text(entry, "holds"))));
        }
        return new ServerScopes(scopes);
    }

    /** The scope called {@code text} on the command line. @throws CliFailure (usage) listing the scopes */
    LimitScope parse(String text) {
        for (LimitScope scope : scopes) {
            if (scope.name().equals(text.toLowerCase(Locale.ROOT))) {
                return scope;
            }
        }
        throw CliFailure.usage("unknown scope '" + text + "'; scopes are " + names());
    }

    /** Every scope's command-line name, comma separated. */
    String names() {
        return scopes.stream().map(LimitScope::name).collect(Collectors.joining(", "));
    }

    /** The scope whose limits sit at {@code field} of the document ({@code kafka.topics}), or {@code null}. */
    LimitScope atField(String field) {
        for (LimitScope scope : scopes) {
            if (scope.field().equals(field)) {
                return scope;
            }
        }
        return null;
    }

    /** Whether {@code field} of the document is a section holding scopes' fields, such as {@code kafka}. */
    boolean isSection(String field) {
        for (LimitScope scope : scopes) {
            if (scope.field().startsWith(field + ".")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The server's scope kinds as a catalogue, for reading and writing limits documents as the
     * server does: the same fields, values and messages. Names are left to the server, whose rules
     * the CLI does not have: any name passes here.
     */
    ScopeCatalogue catalogue() {
        Map<String, List<ScopeKind>> byProtocol = new LinkedHashMap<>();
        int rank = 0;
        for (LimitScope scope : scopes) {
            if (scope.protocol() == null) {
                // The proxy and the connection limits: the engine's own, in every catalogue.
                continue;
            }
            ScopeKind.Builder kind = ScopeKind.builder(scope.protocol(), scope.label())
                    .field(scope.field().split("\\."))
                    .cliName(scope.name())
                    .rank(rank++)
                    .description(scope.description());
            if (scope.named()) {
                kind.named(scope.nameTemplate(), NameRule.ANY, scope.example() == null ? "" : scope.example());
            }
            byProtocol.computeIfAbsent(scope.protocol(), p -> new ArrayList<>()).add(kind.build());
        }
        List<ProtocolScopes> protocols = new ArrayList<>();
        byProtocol.forEach(
                (protocol, kinds) -> protocols.add(new ProtocolScopes(protocol, kinds, topic -> List.of(), List.of())));
        try {
            return ScopeCatalogue.of(protocols);
        } catch (IllegalArgumentException e) {
            throw CliFailure.refused(
                    "the scopes the server lists (GET " + PATH + ") do not fit together: " + e.getMessage());
        }
    }

    private static String text(JsonNode entry, String field) {
        return entry.path(field).textValue();
    }

    private static CliFailure notScopes() {
        return CliFailure.refused(
                "the answer to GET " + PATH + " is not a list of scopes: is this Sluice's admin API?");
    }
}
