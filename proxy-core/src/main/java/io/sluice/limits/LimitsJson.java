package io.sluice.limits;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.sluice.settings.InvalidSettingsException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The JSON form of limits (docs/REFERENCE.md, "Limits"): strict parsing with errors that name the field,
 * and stable pretty output. A whole document is read and written through a {@link ScopeCatalogue},
 * which says which fields it has. Thread-safe.
 *
 * <p>Parsing is strict so that a typing mistake in an operator's document is reported rather
 * than silently meaning "unlimited": unknown fields, duplicate keys, strings for numbers,
 * fractions for counts and numbers for enum names are all rejected.
 */
public final class LimitsJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .defaultPrettyPrinter(new DefaultPrettyPrinter(
                    Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER)))
            .addModule(new SimpleModule("limits-document")
                    .addDeserializer(LimitsDocument.class, new DocumentJson.Reader())
                    .addSerializer(LimitsDocument.class, new DocumentJson.Writer()))
            .build();

    private LimitsJson() {}

    /**
     * Reads a whole limits document with the fields {@code catalogue} lays out.
     *
     * @throws InvalidSettingsException naming what is wrong
     */
    public static LimitsDocument parseDocument(byte[] json, ScopeCatalogue catalogue) {
        return read(
                json,
                MAPPER.readerFor(LimitsDocument.class).withAttribute(ScopeCatalogue.class, catalogue),
                LimitsDocument.class);
    }

    /** Reads one scope's limit. @throws InvalidSettingsException naming what is wrong */
    public static Limit parseLimit(byte[] json) {
        return read(json, MAPPER.readerFor(Limit.class), Limit.class);
    }

    /** Reads the connection limits. @throws InvalidSettingsException naming what is wrong */
    public static ConnectionLimits parseConnection(byte[] json) {
        return read(json, MAPPER.readerFor(ConnectionLimits.class), ConnectionLimits.class);
    }

    /**
     * Pretty UTF-8 JSON, fields in {@code catalogue}'s stable order, names sorted, unlimited (null)
     * fields left out.
     *
     * @throws IllegalArgumentException when the document has limits of a kind the catalogue lacks
     */
    public static byte[] write(LimitsDocument document, ScopeCatalogue catalogue) {
        for (ScopeKind kind : document.limitedKinds()) {
            if (!catalogue.contains(kind)) {
                throw new IllegalArgumentException("the limits document has limits of " + kind
                        + ", which is not in the scope catalogue " + catalogue.kinds());
            }
        }
        try {
            return MAPPER.writer()
                    .withAttribute(ScopeCatalogue.class, catalogue)
                    .writeValueAsBytes(document);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Pretty UTF-8 JSON of one limit. */
    public static byte[] write(Limit limit) {
        return writeValue(limit);
    }

    /** Pretty UTF-8 JSON of the connection limits. */
    public static byte[] write(ConnectionLimits limits) {
        return writeValue(limits);
    }

    private static byte[] writeValue(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            // Records of strings, numbers and enums always serialise.
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(byte[] json, ObjectReader reader, Class<T> type) {
        // Our own parser, so that it is still open (and knows the offending token) while an error is translated.
        try (JsonParser parser = MAPPER.createParser(json)) {
            T value;
            try {
                value = reader.readValue(parser);
                if (parser.nextToken() != null) {
                    throw new InvalidSettingsException(
                            "",
                            "unexpected content after the JSON value at line "
                                    + parser.currentTokenLocation().getLineNr() + ", column "
                                    + parser.currentTokenLocation().getColumnNr());
                }
            } catch (JacksonException e) {
                throw translate(e, parser);
            }
            if (value == null) {
                throw new InvalidSettingsException("", "must be " + expected(type) + ", got null");
            }
            return value;
        } catch (IOException e) {
            // Reading a byte array does no I/O: this is text Jackson cannot decode (it guessed UTF-32
            // from zero bytes, say), a client's mistake like any other malformed JSON.
            throw new InvalidSettingsException("", "unreadable JSON text: " + firstLine(e.getMessage()), e);
        }
    }

    private static InvalidSettingsException translate(JacksonException e, JsonParser parser) {
        String path = e instanceof JsonMappingException mapping ? pathOf(mapping.getPath()) : "";
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidSettingsException own) {
                return own.under(path);
            }
            if (cause instanceof InputCoercionException) {
                return new InvalidSettingsException(path, "must be at most 1e12, got " + tokenText(parser), e);
            }
            if (cause instanceof StreamReadException read && read.getLocation() != null) {
                return new InvalidSettingsException(
                        path,
                        "malformed JSON at line " + read.getLocation().getLineNr() + ", column "
                                + read.getLocation().getColumnNr() + ": " + firstLine(read.getOriginalMessage()),
                        e);
            }
        }
        if (e instanceof UnrecognizedPropertyException unknown) {
            String known = unknown.getKnownPropertyIds().stream()
                    .map(String::valueOf)
                    .sorted()
                    .collect(Collectors.joining(", "));
            return new InvalidSettingsException(path, "unknown field; known fields are " + known, e);
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            String found = e instanceof InvalidFormatException format && format.getValue() instanceof String text
                    ? InvalidSettingsException.quoted(text)
                    : found(parser);
            return new InvalidSettingsException(
                    path, "must be " + expected(mismatch.getTargetType()) + ", got " + found, e);
        }
        return new InvalidSettingsException(path, firstLine(e.getOriginalMessage()), e);
    }

    /** Jackson's path as this project writes it: {@code topics["persistent://a/b/c"].publish}. */
    private static String pathOf(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFrom() instanceof Map && reference.getFieldName() != null) {
                path.append('[')
                        .append(InvalidSettingsException.quoted(reference.getFieldName()))
                        .append(']');
            } else if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String expected(Class<?> type) {
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == OnExceed.class) {
            return "one of "
                    + Arrays.stream(OnExceed.values())
                            .map(action -> InvalidSettingsException.quoted(action.jsonName()))
                            .collect(Collectors.joining(", "));
        }
        return "a JSON object";
    }

    private static String found(JsonParser parser) {
        JsonToken token = parser.currentToken();
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case START_OBJECT, END_OBJECT, FIELD_NAME -> "an object";
            case START_ARRAY, END_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a number with a fraction or exponent";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name() : token.asString();
        };
    }

    private static String tokenText(JsonParser parser) {
        try {
            return parser.getText();
        } catch (IOException e) {
            return "a number out of range";
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable JSON";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
