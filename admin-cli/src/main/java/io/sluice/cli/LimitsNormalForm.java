package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.limits.LimitsJson;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A limits document checked and written in the server's normal form (defaults filled in, fields
 * in a stable order) by the model the server itself uses, so that a document is judged here
 * exactly as the server will judge it, and two documents meaning the same compare equal.
 */
final class LimitsNormalForm {

    private LimitsNormalForm() {}

    /**
     * @param source what the document is, for the message, e.g. {@code limits.json}
     * @throws CliFailure (usage) naming the first problem, as the server would
     */
    static JsonNode of(byte[] json, String source) {
        byte[] normal;
        try {
            normal = LimitsJson.write(LimitsJson.parseDocument(json));
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
