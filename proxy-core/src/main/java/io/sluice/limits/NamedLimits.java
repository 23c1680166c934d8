package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** The checks and copies shared by every map of limits keyed by scope name. */
final class NamedLimits {

    private NamedLimits() {}

    /**
     * An unmodifiable sorted copy (empty for {@code null}), so output is stable.
     *
     * @param field the map's JSON path, for messages, e.g. {@code kafka.prefixes}
     * @param kind the scopes' kind, whose rule each name must keep; names are copied canonical
     *     ({@link ScopeKind#canonicalName})
     * @throws InvalidSettingsException for a bad name, two names of one scope or a null limit, naming the entry
     */
    static SortedMap<String, Limit> checkedCopy(String field, Map<String, Limit> map, ScopeKind kind) {
        SortedMap<String, Limit> copy = new TreeMap<>();
        if (map == null) {
            return Collections.unmodifiableSortedMap(copy);
        }
        for (Map.Entry<String, Limit> entry : map.entrySet()) {
            String at = field + "[" + InvalidSettingsException.quoted(entry.getKey()) + "]";
            String name;
            try {
                name = kind.canonicalName(entry.getKey());
            } catch (InvalidSettingsException e) {
                throw e.under(at);
            }
            if (entry.getValue() == null) {
                throw new InvalidSettingsException(at, "must be a limit object, got null");
            }
            if (copy.put(name, entry.getValue()) != null) {
                throw new InvalidSettingsException(
                        at, "names the same scope as another entry: " + InvalidSettingsException.quoted(name));
            }
        }
        return Collections.unmodifiableSortedMap(copy);
    }

    /** {@code map} with {@code name}'s limit set, or removed when {@code limit} is {@code null}. */
    static Map<String, Limit> with(Map<String, Limit> map, String name, Limit limit) {
        // A HashMap lets a null name through to the constructor's check, which rejects it properly.
        Map<String, Limit> copy = new HashMap<>(map);
        if (limit == null) {
            copy.remove(name);
        } else {
            copy.put(name, limit);
        }
        return copy;
    }
}
