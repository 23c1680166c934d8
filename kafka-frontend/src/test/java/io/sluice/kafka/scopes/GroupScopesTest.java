package io.sluice.kafka.scopes;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.settings.InvalidSettingsException;
import io.sluice.testing.ByteMutator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which {@code kafka.groups} scope a group falls under: its own entry, else the most specific glob,
 * else {@code "*"} per group; globs matched as a regular expression would match them, fuzzed.
 */
class GroupScopesTest {

    private static final Limit JOINS = Limit.joinsPerMinute(10.0);

    private static GroupScopes scopes(String... names) {
        LimitsDocument limits = LimitsDocument.empty();
        for (String name : names) {
            limits = limits.withLimit(new ScopeRef(KafkaScopes.GROUP, name), JOINS);
        }
        return GroupScopes.of(limits);
    }

    private static String scopeName(GroupScopes scopes, String group) {
        ScopeRef scope = scopes.scopeOf(group);
        return scope == null ? null : scope.name();
    }

    @Test
    void anExactEntryWinsThenTheGlobWithTheMostLettersThenEachGroupAlone() {
        GroupScopes scopes = scopes("orders-*", "orders-eu-*", "*-audit", "orders-eu-1", "*");
        assertEquals("orders-eu-1", scopeName(scopes, "orders-eu-1"));
        assertEquals("orders-eu-*", scopeName(scopes, "orders-eu-2"));
        assertEquals("orders-*", scopeName(scopes, "orders-us-1"));
        assertEquals("orders-eu-*", scopeName(scopes, "orders-eu-audit"), "11 letters before 6");
        assertEquals("*-audit", scopeName(scopes, "billing-audit"));
        assertEquals("billing", scopeName(scopes, "billing"), "\"*\": the group in a bucket of its own");
        assertFalse(scopes.isEmpty());
    }

    @Test
    void withoutADefaultAGroupNoEntryNamesIsNotLimited() {
        GroupScopes scopes = scopes("orders-*");
        assertNull(scopes.scopeOf("billing"));
        assertNull(scopes.scopeOf("orders"), "the glob needs its dash");
        assertTrue(GroupScopes.of(LimitsDocument.empty()).isEmpty());
    }

    @Test
    void globsOfEqualWeightAreTriedByName() {
        GroupScopes scopes = scopes("a*c", "ab*");
        assertEquals("a*c", scopeName(scopes, "abc"));
    }

    @Test
    void aNameIsAGroupIdOrGlobWithoutControlCharacters() {
        assertEquals("orders-*", KafkaScopes.GROUP.canonicalName("orders-*"));
        assertEquals("*", KafkaScopes.GROUP.canonicalName("*"));
        assertThrows(InvalidSettingsException.class, () -> KafkaScopes.GROUP.checkName(""));
        assertThrows(InvalidSettingsException.class, () -> KafkaScopes.GROUP.checkName("a\nb"));
        assertThrows(InvalidSettingsException.class, () -> KafkaScopes.GROUP.checkName("g".repeat(256)));
        assertEquals(KafkaNames.INVALID_GROUP_ID, KafkaNames.chargedGroupId("g".repeat(256)));
        assertEquals(KafkaNames.INVALID_GROUP_ID, KafkaNames.chargedGroupId(""));
        assertEquals(KafkaNames.INVALID_GROUP_ID, KafkaNames.chargedGroupId("a\u0000b"));
        assertEquals("orders", KafkaNames.chargedGroupId("orders"));
        assertTrue(ScopeKind.DEFAULT_NAME.equals("*") && KafkaScopes.GROUP.hasDefault());
    }

    @Test
    void aGlobOfManyStarsTakesNoLongerThanItsLengthTimesTheText() {
        String glob = "*a".repeat(120) + "*b";
        String text = "a".repeat(255);
        long start = System.nanoTime();
        assertFalse(GroupScopes.matches(glob, text));
        assertTrue(System.nanoTime() - start < 1_000_000_000L, "backtracking stays bounded");
    }

    /** The first byte splits the input into a glob and a text; both are matched as a regular expression would. */
    @FuzzTest(maxDuration = "5m")
    void globs(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int split = Math.min(input[0] & 0xff, input.length - 1);
        String glob = new String(input, 1, split, StandardCharsets.UTF_8);
        String text = new String(input, 1 + split, input.length - 1 - split, StandardCharsets.UTF_8);
        assertEquals(asRegex(glob).matcher(text).matches(), GroupScopes.matches(glob, text), glob + " / " + text);
    }

    @Test
    void generatedGlobs() {
        List<byte[]> seeds = new ArrayList<>();
        for (String[] pair :
                new String[][] {{"orders-*", "orders-1"}, {"*-audit", "x-audit"}, {"a*b*c", "aXbYc"}, {"**", ""}}) {
            byte[] glob = pair[0].getBytes(StandardCharsets.UTF_8);
            byte[] text = pair[1].getBytes(StandardCharsets.UTF_8);
            byte[] seed = new byte[1 + glob.length + text.length];
            seed[0] = (byte) glob.length;
            System.arraycopy(glob, 0, seed, 1, glob.length);
            System.arraycopy(text, 0, seed, 1 + glob.length, text.length);
            seeds.add(seed);
        }
        new ByteMutator(20_261_205L, seeds).feed(5_000, input -> globs(input));
    }

    private static Pattern asRegex(String glob) {
        List<String> literals = new ArrayList<>();
        for (String literal : glob.split("\\*", -1)) {
            literals.add(literal.isEmpty() ? "" : Pattern.quote(literal));
        }
        return Pattern.compile(String.join(".*", literals), Pattern.DOTALL);
    }
}
