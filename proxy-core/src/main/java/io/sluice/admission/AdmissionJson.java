package io.sluice.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.settings.InvalidSettingsException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The JSON form of admission settings ({@code PUT /api/v1/admission} and the config file) and of
 * {@link AdmissionStatus} ({@code GET}). Thread-safe.
 *
 * <p>Settings JSON, with the defaults:
 * <pre>{@code
 * {
 *   "mode": "disabled",                 // or "monitor_only", "enforced"
 *   "thresholds": {                     // null for a signal: not used
 *     "cpu": 0.9, "heap": 0.9, "direct_memory": 0.9,        // shares, 0 to 1
 *     "event_loop_lag": 200, "upstream_latency_p99": 1000,  // milliseconds
 *     "upstream_connect_failures": 5                        // per sample interval
 *   },
 *   "sampleIntervalMillis": 1000, "openAfterBreaches": 3, "coolDownMillis": 10000,
 *   "halfOpenAdmitShare": 0.1, "closeAfterHealthy": 3
 * }
 * }</pre>
 * Parsing applies a document to base settings: absent fields and absent signals keep the base's
 * value, so {@code {"mode": "enforced"}} changes only the mode; a {@code null} field takes its
 * default. Parsing is strict, so a typing mistake is reported rather than silently ignored:
 * unknown fields and signals, duplicate keys, strings for numbers and fractions for integers are
 * all rejected with an {@link InvalidSettingsException} naming the field.
 */
public final class AdmissionJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private static final String MODE = "mode";
    private static final String THRESHOLDS = "thresholds";
    private static final String SAMPLE_INTERVAL_MILLIS = "sampleIntervalMillis";
    private static final String OPEN_AFTER_BREACHES = "openAfterBreaches";
    private static final String COOL_DOWN_MILLIS = "coolDownMillis";
    private static final String HALF_OPEN_ADMIT_SHARE = "halfOpenAdmitShare";
    private static final String CLOSE_AFTER_HEALTHY = "closeAfterHealthy";
    private static final String KNOWN_FIELDS = String.join(
            ", ",
            CLOSE_AFTER_HEALTHY,
            COOL_DOWN_MILLIS,
            HALF_OPEN_ADMIT_SHARE,
            MODE,
            OPEN_AFTER_BREACHES,
            SAMPLE_INTERVAL_MILLIS,
            THRESHOLDS);

    private AdmissionJson() {}

    /** Reads settings, taking {@link AdmissionSettings#DEFAULTS} for whatever the document leaves out. */
    public static AdmissionSettings parseSettings(byte[] json) {
        return parseSettings(json, AdmissionSettings.DEFAULTS);
    }

    /**
     * Reads a settings document onto {@code base}: what the document leaves out keeps the base's value.
     *
     * @throws InvalidSettingsException naming the field at fault
     */
    public static AdmissionSettings parseSettings(byte[] json, AdmissionSettings base) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new InvalidSettingsException(
                    "", "malformed JSON" + where + ": " + firstLine(e.getOriginalMessage()), e);
        } catch (IOException e) {
            // Reading a byte array does no I/O.
            throw new UncheckedIOException(e);
        }
        return parseSettings(tree, base);
    }

    /**
     * Reads settings from an already parsed tree, such as the {@code admission} section of a YAML
     * config file, onto {@code base}.
     *
     * @throws InvalidSettingsException naming the field at fault
     */
    public static AdmissionSettings parseSettings(JsonNode tree, AdmissionSettings base) {
        if (tree == null || !tree.isObject()) {
            throw new InvalidSettingsException("", "must be a JSON object, got " + describe(tree));
        }
        AdmissionSettings defaults = AdmissionSettings.DEFAULTS;
        AdmissionMode mode = base.mode();
        Map<Signal, Double> thresholds = new EnumMap<>(Signal.class);
        thresholds.putAll(base.thresholds());
        long sampleIntervalMillis = base.sampleIntervalMillis();
        int openAfterBreaches = base.openAfterBreaches();
        long coolDownMillis = base.coolDownMillis();
        double halfOpenAdmitShare = base.halfOpenAdmitShare();
        int closeAfterHealthy = base.closeAfterHealthy();
        for (Map.Entry<String, JsonNode> field : tree.properties()) {
            String name = field.getKey();
            JsonNode value = field.getValue();
            boolean reset = value.isNull();
            switch (name) {
                case MODE -> mode = reset ? defaults.mode() : mode(value);
                case THRESHOLDS -> {
                    if (reset) {
                        thresholds.clear();
                        thresholds.putAll(defaults.thresholds());
                    } else {
                        applyThresholds(value, thresholds);
                    }
                }
                case SAMPLE_INTERVAL_MILLIS ->
                    sampleIntervalMillis = reset ? defaults.sampleIntervalMillis() : integer(name, value);
                case OPEN_AFTER_BREACHES ->
                    openAfterBreaches = reset ? defaults.openAfterBreaches() : sampleCount(name, value);
                case COOL_DOWN_MILLIS -> coolDownMillis = reset ? defaults.coolDownMillis() : integer(name, value);
                case HALF_OPEN_ADMIT_SHARE ->
                    halfOpenAdmitShare = reset ? defaults.halfOpenAdmitShare() : number(name, value);
                case CLOSE_AFTER_HEALTHY ->
                    closeAfterHealthy = reset ? defaults.closeAfterHealthy() : sampleCount(name, value);
                default -> throw new InvalidSettingsException(name, "unknown field; known fields are " + KNOWN_FIELDS);
            }
        }
        return new AdmissionSettings(
                mode,
                thresholds,
                sampleIntervalMillis,
                openAfterBreaches,
                coolDownMillis,
                halfOpenAdmitShare,
                closeAfterHealthy);
    }

    /** Pretty UTF-8 JSON in the form {@link #parseSettings} reads; every signal is listed, unused ones as {@code null}. */
    public static byte[] write(AdmissionSettings settings) {
        return bytes(tree(settings));
    }

    /**
     * Pretty UTF-8 JSON of a status snapshot: {@code sampledAt}, {@code breakers} by request type,
     * {@code signals} by name (unknown values as {@code null}), {@code settings} and
     * {@code recentTransitions}, oldest first. Times are ISO-8601 instants.
     */
    public static byte[] write(AdmissionStatus status) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("sampledAt", instant(status.sampledAt()));
        ObjectNode breakers = root.putObject("breakers");
        status.breakers().forEach((type, breaker) -> {
            ObjectNode node = breakers.putObject(type.name());
            node.put("state", breaker.state().name());
            node.put("since", instant(breaker.since()));
            node.put("rejections", breaker.rejections());
            node.put("wouldBeRejections", breaker.wouldBeRejections());
            node.put("reason", breaker.reason());
        });
        ObjectNode signals = root.putObject("signals");
        status.signals().forEach((signal, reading) -> {
            ObjectNode node = signals.putObject(signal.jsonName());
            putNumber(node, "value", Double.isNaN(reading.value()) ? null : reading.value());
            putNumber(node, "threshold", reading.threshold());
            node.put("breached", reading.breached());
        });
        root.set("settings", tree(status.settings()));
        ArrayNode transitions = root.putArray("recentTransitions");
        for (Transition transition : status.recentTransitions()) {
            ObjectNode node = transitions.addObject();
            node.put("type", transition.type().name());
            node.put("from", transition.from().name());
            node.put("to", transition.to().name());
            node.put("at", instant(transition.at()));
            Breach breach = transition.breach();
            node.put("signal", breach == null ? null : breach.signal().jsonName());
            putNumber(node, "value", breach == null ? null : breach.value());
            putNumber(node, "threshold", breach == null ? null : breach.threshold());
        }
        return bytes(root);
    }

    private static ObjectNode tree(AdmissionSettings settings) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put(MODE, settings.mode().jsonName());
        ObjectNode thresholds = root.putObject(THRESHOLDS);
        for (Signal signal : Signal.values()) {
            putNumber(thresholds, signal.jsonName(), settings.threshold(signal));
        }
        root.put(SAMPLE_INTERVAL_MILLIS, settings.sampleIntervalMillis());
        root.put(OPEN_AFTER_BREACHES, settings.openAfterBreaches());
        root.put(COOL_DOWN_MILLIS, settings.coolDownMillis());
        putNumber(root, HALF_OPEN_ADMIT_SHARE, settings.halfOpenAdmitShare());
        root.put(CLOSE_AFTER_HEALTHY, settings.closeAfterHealthy());
        return root;
    }

    private static AdmissionMode mode(JsonNode value) {
        AdmissionMode mode = value.isTextual() ? AdmissionMode.fromJsonName(value.textValue()) : null;
        if (mode == null) {
            String known = Arrays.stream(AdmissionMode.values())
                    .map(m -> '"' + m.jsonName() + '"')
                    .collect(Collectors.joining(", "));
            throw new InvalidSettingsException(MODE, "must be one of " + known + ", got " + describe(value));
        }
        return mode;
    }

    private static void applyThresholds(JsonNode value, Map<Signal, Double> thresholds) {
        if (!value.isObject()) {
            throw new InvalidSettingsException(
                    THRESHOLDS, "must be an object of signal to threshold, got " + describe(value));
        }
        for (Map.Entry<String, JsonNode> entry : value.properties()) {
            String field = THRESHOLDS + "." + entry.getKey();
            Signal signal = Signal.fromJsonName(entry.getKey());
            if (signal == null) {
                String known =
                        Arrays.stream(Signal.values()).map(Signal::jsonName).collect(Collectors.joining(", "));
                throw new InvalidSettingsException(field, "unknown signal; known signals are " + known);
            }
            if (entry.getValue().isNull()) {
                thresholds.remove(signal);
            } else {
                thresholds.put(signal, number(field, entry.getValue()));
            }
        }
    }

    private static double number(String field, JsonNode value) {
        if (!value.isNumber()) {
            throw new InvalidSettingsException(field, "must be a number, got " + describe(value));
        }
        return value.doubleValue();
    }

    private static long integer(String field, JsonNode value) {
        if (!value.isIntegralNumber()) {
            throw new InvalidSettingsException(field, "must be an integer, got " + describe(value));
        }
        if (!value.canConvertToLong()) {
            throw new InvalidSettingsException(field, "must be a 64-bit integer, got " + value.asText());
        }
        return value.longValue();
    }

    /** An integer count of samples; out-of-range values are reported here, as an int could not carry them. */
    private static int sampleCount(String field, JsonNode value) {
        long count = integer(field, value);
        if (count < 1 || count > AdmissionSettings.MAX_SAMPLE_COUNT) {
            throw new InvalidSettingsException(
                    field, "must be at least 1 and at most " + AdmissionSettings.MAX_SAMPLE_COUNT + ", got " + count);
        }
        return (int) count;
    }

    /** A JSON value as an error message shows it: {@code "fast"}, {@code 12}, {@code an object}. */
    private static String describe(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "nothing";
        }
        if (value.isTextual()) {
            return '"' + value.textValue().replace("\\", "\\\\").replace("\"", "\\\"") + '"';
        }
        if (value.isObject()) {
            return "an object";
        }
        if (value.isArray()) {
            return "an array";
        }
        return value.asText();
    }

    /** Writes a whole number without a fraction (1000, not 1000.0) and {@code null} as null. */
    private static void putNumber(ObjectNode node, String field, Double value) {
        if (value == null) {
            node.putNull(field);
        } else if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            node.put(field, value.longValue());
        } else {
            node.put(field, value);
        }
    }

    private static String instant(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static byte[] bytes(JsonNode tree) {
        try {
            return MAPPER.writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
            // A tree of strings, numbers and booleans always serialises.
            throw new UncheckedIOException(e);
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
