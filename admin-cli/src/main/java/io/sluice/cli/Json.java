package io.sluice.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The JSON reading and writing the CLI does: strict about duplicate keys, pretty or one-line output. */
final class Json {

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private Json() {}

    /** Parses JSON text. @throws IOException when it is not JSON */
    static JsonNode read(byte[] json) throws IOException {
        JsonNode node = MAPPER.readTree(json);
        return node == null ? MAPPER.missingNode() : node;
    }

    /** Indented JSON, as the admin API writes it. */
    static String pretty(JsonNode node) {
        try {
            return MAPPER.writer(SerializationFeature.INDENT_OUTPUT).writeValueAsString(node);
        } catch (JsonProcessingException e) {
            // A tree read from JSON always writes.
            throw new UncheckedIOException(e);
        }
    }

    /** JSON on one line, for diffs and tables. */
    static String compact(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A number as an operator writes it: {@code 500}, not {@code 500.0}; anything else as compact JSON. */
    static String plain(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "(none)";
        }
        if (value.isNumber()) {
            double number = value.doubleValue();
            if (number == Math.rint(number) && Math.abs(number) < 1e15) {
                return Long.toString((long) number);
            }
            return value.asText();
        }
        return value.isTextual() ? value.textValue() : compact(value);
    }
}
