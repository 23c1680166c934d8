package io.sluice.kafka.scopes;

import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code kafka.groups} scope a consumer group falls under in one limits document: the entry
 * that names it exactly; else the glob that matches it with the most characters other than
 * {@code *} (ties: the first by name), all the groups a glob matches sharing its bucket; else, when
 * the document has a {@code "*"} entry, the group itself, in a bucket of its own; {@code null} when
 * none. In a glob {@code *} stands for any run of characters, none included; every other character
 * stands for itself. Immutable and thread-safe.
 */
public final class GroupScopes {

    private static final GroupScopes NONE = new GroupScopes(Map.of(), List.of(), false);

    private static final Comparator<String> MOST_SPECIFIC_FIRST = Comparator.comparingInt(GroupScopes::literalLength)
            .reversed()
            .thenComparing(Comparator.<String>naturalOrder());

    private final Map<String, ScopeRef> exact;
    private final List<String> globs;
    private final boolean perGroup;

    private GroupScopes(Map<String, ScopeRef> exact, List<String> globs, boolean perGroup) {
        this.exact = exact;
        this.globs = globs;
        this.perGroup = perGroup;
    }

    /** The {@code kafka.groups} entries of {@code limits}. */
    public static GroupScopes of(LimitsDocument limits) {
        Map<String, ScopeRef> exact = new HashMap<>();
        List<String> globs = new ArrayList<>();
        boolean perGroup = false;
        for (String name : limits.limitsOf(KafkaScopes.GROUP).keySet()) {
            if (ScopeKind.DEFAULT_NAME.equals(name)) {
                perGroup = true;
            } else if (name.indexOf('*') >= 0) {
                globs.add(name);
            } else {
                exact.put(name, new ScopeRef(KafkaScopes.GROUP, name));
            }
        }
        if (exact.isEmpty() && globs.isEmpty() && !perGroup) {
            return NONE;
        }
        globs.sort(MOST_SPECIFIC_FIRST);
        return new GroupScopes(Map.copyOf(exact), List.copyOf(globs), perGroup);
    }

    /** Whether no group is limited. */
    public boolean isEmpty() {
        return this == NONE;
    }

    /**
     * The scope {@code group} is limited at, or {@code null} when none is.
     *
     * @param group a group id as {@link KafkaNames#chargedGroupId} leaves it
     */
    public ScopeRef scopeOf(String group) {
        ScopeRef named = exact.get(group);
        if (named != null) {
            return named;
        }
        for (String glob : globs) {
            if (matches(glob, group)) {
                return new ScopeRef(KafkaScopes.GROUP, glob);
            }
        }
        return perGroup ? new ScopeRef(KafkaScopes.GROUP, group) : null;
    }

    /**
     * Whether {@code glob} matches the whole of {@code text}. Each {@code *} is tried from its
     * shortest run up, going back only to the last {@code *}, so that the time is at most the
     * product of the two lengths, whatever the glob.
     */
    static boolean matches(String glob, String text) {
        int g = 0;
        int t = 0;
        int star = -1;
        int starText = 0;
        while (t < text.length()) {
            if (g < glob.length() && glob.charAt(g) == '*') {
                star = g++;
                starText = t;
            } else if (g < glob.length() && glob.charAt(g) == text.charAt(t)) {
                g++;
                t++;
            } else if (star >= 0) {
                g = star + 1;
                t = ++starText;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') {
            g++;
        }
        return g == glob.length();
    }

    private static int literalLength(String glob) {
        int length = 0;
        for (int i = 0; i < glob.length(); i++) {
            if (glob.charAt(i) != '*') {
                length++;
            }
        }
        return length;
    }
}
