package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A limits document ({@code GET /api/v1/limits}) as a list of scopes and their limits, named as
 * the CLI names them, so that {@code limits list} and {@code limits import} can show them one by
 * one. A field this CLI does not know is kept as one scope of its own, so nothing in a document
 * is ever left out of a comparison.
 */
final class DocumentScopes {

    /** One scope's limit: {@code name} is empty for the proxy and connection limits. */
    record Entry(String scope, String name, JsonNode limit) {

        /** The scope and name as the CLI's commands take them. */
        String label() {
            return name.isEmpty() ? scope : scope + " " + name;
        }
    }

    private DocumentScopes() {}

    /** The document's scopes, in the document's order; keyed by label. */
    static Map<String, Entry> of(JsonNode document) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : document.properties()) {
            add(entries, null, field.getKey(), field.getValue());
        }
        return entries;
    }

    private static void add(Map<String, Entry> entries, String section, String field, JsonNode value) {
        LimitScope scope = scopeOf(section, field);
        String fullField = section == null ? field : section + "." + field;
        if (scope == null && section == null && value.isObject() && sectionHoldsScopes(field)) {
            for (Map.Entry<String, JsonNode> inner : value.properties()) {
                add(entries, field, inner.getKey(), inner.getValue());
            }
            return;
        }
        if (scope == null) {
            put(entries, new Entry(fullField, "", value));
        } else if (!scope.named()) {
            put(entries, new Entry(scope.cliName(), "", value));
        } else if (value.isObject()) {
            for (Map.Entry<String, JsonNode> named : value.properties()) {
                put(entries, new Entry(scope.cliName(), named.getKey(), named.getValue()));
            }
        } else {
            put(entries, new Entry(fullField, "", value));
        }
    }

    private static void put(Map<String, Entry> entries, Entry entry) {
        entries.put(entry.label(), entry);
    }

    private static LimitScope scopeOf(String section, String field) {
        for (LimitScope scope : LimitScope.values()) {
            if (scope.field().equals(field)
                    && (section == null ? scope.section() == null : section.equals(scope.section()))) {
                return scope;
            }
        }
        return null;
    }

    private static boolean sectionHoldsScopes(String field) {
        for (LimitScope scope : LimitScope.values()) {
            if (field.equals(scope.section())) {
                return true;
            }
        }
        return false;
    }

    /** The entries as a list, for tables. */
    static List<Entry> list(JsonNode document) {
        return new ArrayList<>(of(document).values());
    }
}
