package io.sluice.admin.limits;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiJson;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.limits.DocumentField;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/v1/scopes}: every scope the limits API serves, in the order of the limits
 * document's fields, as a JSON array of {@link ScopeEntry}: each kind of the catalogue, and the
 * connection limits. The CLI learns the scopes it takes from here, so a server with another front
 * end needs no other CLI.
 */
public final class ScopesResource {

    /** The endpoint of the connection limits. */
    public static final String CONNECTION_PATH = ScopeRoute.LIMITS + "/" + ScopeCatalogue.CONNECTION;

    private final List<ScopeEntry> entries;
    private final byte[] json;

    public ScopesResource(ScopeCatalogue catalogue) {
        List<ScopeEntry> entries = new ArrayList<>();
        collect(catalogue.document(), entries);
        this.entries = List.copyOf(entries);
        this.json = ApiJson.write(this.entries);
    }

    /** The entries, in the order served. */
    public List<ScopeEntry> entries() {
        return entries;
    }

    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, json);
    }

    private static void collect(DocumentField.Section section, List<ScopeEntry> into) {
        for (DocumentField field : section.fields()) {
            if (field instanceof DocumentField.Kind kind) {
                into.add(entry(new ScopeRoute(kind.kind())));
            } else if (field instanceof DocumentField.Connection connection) {
                into.add(connection(connection.name()));
            } else {
                collect((DocumentField.Section) field, into);
            }
        }
    }

    private static ScopeEntry entry(ScopeRoute route) {
        ScopeKind kind = route.kind();
        return new ScopeEntry(
                kind.cliName(),
                kind.protocol(),
                kind.label(),
                kind.fieldPath(),
                route.path(),
                kind.named() ? kind.nameTemplate().template() : null,
                kind.example(),
                kind.description(),
                kind.hasDefault() ? ScopeKind.DEFAULT_NAME : null,
                ScopeEntry.LIMIT);
    }

    private static ScopeEntry connection(String field) {
        return new ScopeEntry(
                field,
                null,
                field,
                field,
                CONNECTION_PATH,
                null,
                null,
                "what each client connection may have outstanding",
                null,
                ScopeEntry.CONNECTION);
    }
}
