package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A limits document ({@code GET /api/v1/limits}) as a list of scopes and their limits, named as
 * the CLI names them, so that {@code limits list} and {@code limits import} can show them one by
 * one. Where each scope sits comes from the server's list of its scopes. A field the list does
 * not name is kept as one scope of its own, so nothing in a document is ever left out of a
 * comparison.
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
    static Map<String, Entry> of(ServerScopes scopes, JsonNode document) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        add(scopes, entries, "", document);
        return entries;
    }

    /** The fields of {@code section} (at {@code prefix}: empty for the top level) as entries. */
    private static void add(ServerScopes scopes, Map<String, Entry> entries, String prefix, JsonNode section) {
        for (Map.Entry<String, JsonNode> field : section.properties()) {
            String path = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
            JsonNode value = field.getValue();
            LimitScope scope = scopes.atField(path);
            if (scope == null && value.isObject() && scopes.isSection(path)) {
                add(scopes, entries, path, value);
            } else if (scope == null) {
                put(entries, new Entry(path, "", value));
            } else if (!scope.named()) {
                put(entries, new Entry(scope.name(), "", value));
            } else if (value.isObject()) {
                for (Map.Entry<String, JsonNode> named : value.properties()) {
                    put(entries, new Entry(scope.name(), named.getKey(), named.getValue()));
                }
            } else {
                put(entries, new Entry(path, "", value));
            }
        }
    }

    private static void put(Map<String, Entry> entries, Entry entry) {
        entries.put(entry.label(), entry);
    }

    /** The entries as a list, for tables. */
    static List<Entry> list(ServerScopes scopes, JsonNode document) {
        return new ArrayList<>(of(scopes, document).values());
    }
}
