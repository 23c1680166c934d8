package io.sluice.admin.limits;

/**
 * One scope whose limit the limits API serves, as {@code GET /api/v1/scopes} lists it: what a
 * client (the CLI) needs to address it without knowing the front end it belongs to. Absent values
 * are left out of the JSON.
 *
 * @param scope the name the CLI takes: {@code topic}, {@code kafka-prefix}, {@code proxy}, {@code connection}
 * @param protocol the protocol whose traffic it covers; absent for the proxy and the connection limits
 * @param label as {@code /api/v1/throttled} entries and the metrics' {@code scope} label name it
 * @param field where its limits sit in the limits document, as a JSON path: {@code kafka.prefixes}
 * @param path its endpoint, as in OpenAPI: {@code /api/v1/limits/kafka/prefixes/{prefix}}
 * @param nameTemplate how the path's parameters join into the scope's name in the document:
 *     {@code {domain}://{tenant}/{namespace}/{topic}}; absent for a scope with no name
 * @param example a valid name; absent for a scope with no name
 * @param description what one scope covers: {@code one namespace (all its topics together)}
 * @param defaultName the name of the entry that limits each scope of the kind without one of its
 *     own, each in a bucket of its own ({@code *}); absent for a kind without a default
 * @param holds {@code limit} (a LIMIT, which DELETE removes) or {@code connection} (the connection
 *     limits, which always have a value)
 */
public record ScopeEntry(
        String scope,
        String protocol,
        String label,
        String field,
        String path,
        String nameTemplate,
        String example,
        String description,
        String defaultName,
        String holds) {

    /** What a scope of a kind holds. */
    public static final String LIMIT = "limit";

    /** What the connection limits' entry holds. */
    public static final String CONNECTION = "connection";
}
