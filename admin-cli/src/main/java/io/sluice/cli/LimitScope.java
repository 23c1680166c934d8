package io.sluice.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The scopes a limit can be set on, as the CLI names them ({@code topic}, {@code kafka-prefix}...),
 * and where each one's limit lives in the admin API and in the limits document.
 */
enum LimitScope {

    /** A Pulsar topic, {@code persistent://tenant/namespace/topic}. */
    TOPIC("topic", "topics", null) {
        @Override
        String path(String name) {
            int scheme = name.indexOf("://");
            String[] parts =
                    scheme < 0 ? new String[0] : name.substring(scheme + 3).split("/", 3);
            if (parts.length != 3) {
                throw CliFailure.usage(
                        "a topic is named in full, e.g. persistent://public/default/orders; got '" + name + "'");
            }
            return "/api/v1/limits/topics/" + segment(name.substring(0, scheme)) + "/" + segment(parts[0]) + "/"
                    + segment(parts[1]) + "/" + segment(parts[2]);
        }
    },
    /** A Pulsar namespace, {@code tenant/namespace}. */
    NAMESPACE("namespace", "namespaces", null) {
        @Override
        String path(String name) {
            String[] parts = name.split("/", -1);
            if (parts.length != 2) {
                throw CliFailure.usage(
                        "a namespace is named tenant/namespace, e.g. public/default; got '" + name + "'");
            }
            return "/api/v1/limits/namespaces/" + segment(parts[0]) + "/" + segment(parts[1]);
        }
    },
    /** A Pulsar tenant. */
    TENANT("tenant", "tenants", null),
    /** Everything through this Sluice; no name. */
    PROXY("proxy", "proxy", null),
    /** What each client connection may have outstanding; no name, and always a value (no delete). */
    CONNECTION("connection", "connection", null),
    /** A Kafka topic. */
    KAFKA_TOPIC("kafka-topic", "topics", "kafka"),
    /** Kafka topics whose names start with a prefix (the longest matching prefix applies). */
    KAFKA_PREFIX("kafka-prefix", "prefixes", "kafka"),
    /** A Kafka client id. */
    KAFKA_CLIENT("kafka-client", "clients", "kafka");

    private final String cliName;
    private final String field;
    private final String section;

    LimitScope(String cliName, String field, String section) {
        this.cliName = cliName;
        this.field = field;
        this.section = section;
    }

    /** The scope called {@code text} on the command line. @throws CliFailure (usage) listing the scopes */
    static LimitScope parse(String text) {
        for (LimitScope scope : values()) {
            if (scope.cliName.equals(text.toLowerCase(Locale.ROOT))) {
                return scope;
            }
        }
        throw CliFailure.usage("unknown scope '" + text + "'; scopes are " + names());
    }

    /** Every scope's command-line name, comma separated. */
    static String names() {
        return Arrays.stream(values()).map(LimitScope::cliName).collect(Collectors.joining(", "));
    }

    /** How the command line and the CLI's output name this scope. */
    String cliName() {
        return cliName;
    }

    /** Whether a limit of this scope belongs to one named thing (a topic...) rather than the whole proxy. */
    boolean named() {
        return this != PROXY && this != CONNECTION;
    }

    /** Whether this scope holds connection limits rather than rates. */
    boolean isConnection() {
        return this == CONNECTION;
    }

    /** The field of the limits document holding this scope (a map of names, or the limit itself). */
    String field() {
        return field;
    }

    /** The section of the limits document this scope's field is in, or {@code null} for the top level. */
    String section() {
        return section;
    }

    /**
     * The admin API path of the limit of {@code name} ({@code null} for an unnamed scope).
     *
     * @throws CliFailure (usage) when the name cannot be one of this scope
     */
    String path(String name) {
        String prefix = section == null ? "/api/v1/limits/" : "/api/v1/limits/" + section + "/";
        return named() ? prefix + field + "/" + segment(name) : prefix + field;
    }

    /** The scope and name as messages say them: {@code topic persistent://public/default/orders}, {@code proxy}. */
    String describe(String name) {
        return named() ? cliName + " " + name : cliName;
    }

    /**
     * One path segment, percent-encoded so that any name (a Kafka client id with a slash, a
     * space or non-ASCII letters) reaches the server as one segment.
     */
    static String segment(String text) {
        if (text.isEmpty()) {
            throw CliFailure.usage("a scope name must not have an empty part");
        }
        if (text.equals(".") || text.equals("..")) {
            // Encoded, so that no client or proxy on the way reads them as the path's own dot segments.
            return text.replace(".", "%2E");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 8);
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c >= '0' && c <= '9'
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                out.write(c);
            } else {
                out.write('%');
                out.write(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
                out.write(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString(StandardCharsets.US_ASCII);
    }
}
