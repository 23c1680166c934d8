package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What replacing one limits document with another changes, scope by scope: which scopes gain a
 * limit, which lose theirs, and for the others which fields change from what to what. Both
 * documents must be in the server's normal form (defaults filled in), or a default written out
 * in one and left out in the other would read as a change.
 */
final class LimitsDiff {

    /** What happens to one scope. */
    enum Kind {
        ADDED("+"),
        CHANGED("~"),
        REMOVED("-");

        final String mark;

        Kind(String mark) {
            this.mark = mark;
        }
    }

    /** One scope's change; {@code details} are the changed fields, or the whole limit added or removed. */
    record Change(Kind kind, String label, List<String> details) {}

    private final List<Change> changes;
    private final int unchanged;

    private LimitsDiff(List<Change> changes, int unchanged) {
        this.changes = List.copyOf(changes);
        this.unchanged = unchanged;
    }

    /** The changes that replacing {@code current} with {@code proposed} makes, scope by scope of {@code scopes}. */
    static LimitsDiff between(ServerScopes scopes, JsonNode current, JsonNode proposed) {
        Map<String, DocumentScopes.Entry> before = DocumentScopes.of(scopes, current);
        Map<String, DocumentScopes.Entry> after = DocumentScopes.of(scopes, proposed);
        Set<String> labels = new LinkedHashSet<>(before.keySet());
        labels.addAll(after.keySet());
        List<Change> changes = new ArrayList<>();
        int unchanged = 0;
        for (String label : labels) {
            DocumentScopes.Entry old = before.get(label);
            DocumentScopes.Entry now = after.get(label);
            if (old == null) {
                changes.add(new Change(Kind.ADDED, label, List.of(Json.compact(now.limit()))));
            } else if (now == null) {
                changes.add(new Change(Kind.REMOVED, label, List.of(Json.compact(old.limit()))));
            } else if (!old.limit().equals(now.limit())) {
                changes.add(new Change(Kind.CHANGED, label, fieldChanges(old.limit(), now.limit())));
            } else {
                unchanged++;
            }
        }
        return new LimitsDiff(changes, unchanged);
    }

    List<Change> changes() {
        return changes;
    }

    boolean isEmpty() {
        return changes.isEmpty();
    }

    long count(Kind kind) {
        return changes.stream().filter(c -> c.kind() == kind).count();
    }

    /** One line per scope, {@code +}, {@code ~} or {@code -} first, then a summary line. */
    void print(PrintWriter out) {
        for (Change change : changes) {
            if (change.kind() == Kind.CHANGED) {
                out.println(change.kind().mark + " " + change.label());
                change.details().forEach(detail -> out.println("    " + detail));
            } else {
                out.println(change.kind().mark + " " + change.label() + "  "
                        + change.details().get(0));
            }
        }
        out.println(summary());
    }

    /** e.g. {@code 2 added, 1 changed, 0 removed, 14 unchanged}. */
    String summary() {
        return count(Kind.ADDED) + " added, " + count(Kind.CHANGED) + " changed, " + count(Kind.REMOVED) + " removed, "
                + unchanged + " unchanged";
    }

    private static List<String> fieldChanges(JsonNode before, JsonNode after) {
        Map<String, JsonNode> old = new TreeMap<>();
        Map<String, JsonNode> now = new TreeMap<>();
        flatten("", before, old);
        flatten("", after, now);
        Set<String> fields = new TreeSet<>(old.keySet());
        fields.addAll(now.keySet());
        List<String> lines = new ArrayList<>();
        for (String field : fields) {
            JsonNode a = old.get(field);
            JsonNode b = now.get(field);
            if (!Objects.equals(a, b)) {
                lines.add(field + ": " + Json.plain(a) + " -> " + Json.plain(b));
            }
        }
        return lines;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, JsonNode> into) {
        if (node.isObject() && !node.isEmpty()) {
            node.properties()
                    .forEach(e ->
                            flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), into));
        } else {
            into.put(prefix.isEmpty() ? "(limit)" : prefix, node);
        }
    }
}
