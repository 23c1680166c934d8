package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.ScopeCatalogue;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A limits document checked and written in the server's normal form (defaults filled in, fields
 * in a stable order) by the model the server itself uses, laid out by the scopes the server lists,
 * so that a document is judged here as the server will judge it (every field, value and message
 * the same), and two documents meaning the same compare equal. Only the scopes' names are left to
 * the server, whose rules they are: a bad one is refused when the document is sent, and the
 * server's all-or-nothing {@code PUT} then changes nothing.
 */
final class LimitsNormalForm {

    private LimitsNormalForm() {}

    /**
     * @param source what the document is, for the message, e.g. {@code limits.json}
     * @param scopes the server's scopes
     * @throws CliFailure (usage) naming the first problem, as the server would
     */
    static JsonNode of(byte[] json, String source, ServerScopes scopes) {
        ScopeCatalogue catalogue = scopes.catalogue();
        byte[] normal;
        try {
            normal = LimitsJson.write(LimitsJson.parseDocument(json, catalogue), catalogue);
        } catch (IllegalArgumentException e) {
            throw CliFailure.usage(source + " is not a valid limits document: " + e.getMessage(), e);
        }
        try {
            return Json.read(normal);
        } catch (IOException e) {
            // The model writes JSON.
            throw new UncheckedIOException(e);
        }
    }
}
