package io.sluice.cli;

import io.sluice.limits.NameTemplate;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A scope a limit can be set on, as the server lists it ({@code GET /api/v1/scopes}): what the CLI
 * calls it ({@code topic}, {@code kafka-prefix}...), where its limit lives in the admin API and in
 * the limits document, and how its name splits into the path's parts.
 *
 * @param name the CLI's name of the scope
 * @param protocol the protocol whose traffic it covers, or {@code null} (the proxy, the connection limits)
 * @param label as throttles and metrics name it
 * @param field where its limits sit in the limits document, as a JSON path: {@code kafka.prefixes}
 * @param path its endpoint: {@code /api/v1/limits/kafka/prefixes/{prefix}}
 * @param nameTemplate how the path's parameters join into a name, or {@code null} for a scope with no name
 * @param example a valid name, or {@code null}
 * @param description what one scope covers
 * @param connection whether it holds the connection limits rather than a limit (no delete)
 */
record LimitScope(
        String name,
        String protocol,
        String label,
        String field,
        String path,
        NameTemplate nameTemplate,
        String example,
        String description,
        boolean connection) {

    /** Whether a limit of this scope belongs to one named thing (a topic...) rather than the whole proxy. */
    boolean named() {
        return nameTemplate != null;
    }

    /** Whether this scope holds connection limits rather than rates. */
    boolean isConnection() {
        return connection;
    }

    /**
     * The admin API path of the limit of {@code scopeName} ({@code null} for an unnamed scope): the
     * name split into the path's parts, each percent-encoded.
     *
     * @throws CliFailure (usage) when the name cannot be one of this scope
     */
    String path(String scopeName) {
        if (!named()) {
            return path;
        }
        Map<String, String> parts = nameTemplate.split(scopeName);
        if (parts == null) {
            throw CliFailure.usage("a " + name + " is named in full, " + nameTemplate.form() + ", e.g. " + example
                    + "; got '" + scopeName + "'");
        }
        String filled = path;
        for (Map.Entry<String, String> part : parts.entrySet()) {
            filled = filled.replace("{" + part.getKey() + "}", segment(part.getValue()));
        }
        return filled;
    }

    /** The scope and name as messages say them: {@code topic persistent://public/default/orders}, {@code proxy}. */
    String describe(String scopeName) {
        return named() ? name + " " + scopeName : name;
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
