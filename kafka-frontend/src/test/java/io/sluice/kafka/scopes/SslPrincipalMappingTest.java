package io.sluice.kafka.scopes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.security.auth.x500.X500Principal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SslPrincipalMappingTest {

    /** The example of Kafka's documentation ("Customizing SSL User Name"), as written there, one rule a line. */
    private static final String DOCUMENTED_RULES = "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,\n"
            + "RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L,\n"
            + "RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L,\n"
            + "DEFAULT";

    @Test
    void theDocumentedExampleMapsItsTwoNames() {
        SslPrincipalMapping mapping = SslPrincipalMapping.parse(DOCUMENTED_RULES);
        assertEquals(
                "serviceuser",
                mapping.nameOf("CN=serviceuser,OU=ServiceUsers,O=Unknown,L=Unknown,ST=Unknown,C=Unknown"));
        assertEquals(
                "adminuser@admin", mapping.nameOf("CN=adminUser,OU=Admin,O=Unknown,L=Unknown,ST=Unknown,C=Unknown"));
        // The third rule: any subject with a CN; the fourth only what has none.
        assertEquals("duke", mapping.nameOf("O=Sun,cN=Duke,C=US"));
        assertEquals("OU=JavaSoft,O=Sun Microsystems,C=US", mapping.nameOf("OU=JavaSoft,O=Sun Microsystems,C=US"));
    }

    @Test
    void upperCaseAndTheFirstRuleThatAppliesWins() {
        SslPrincipalMapping mapping = SslPrincipalMapping.parse(
                "RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U, RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT");
        assertEquals("DUKE@SME", mapping.nameOf("cn=duke,ou=sme,dc=mycp,dc=com"));
        assertEquals("duke", mapping.nameOf("CN=Duke,OU=ServiceUsers,O=Org,C=US"));
        assertEquals("CN=Duke,OU=Other", mapping.nameOf("CN=Duke,OU=Other"));
    }

    @Test
    void defaultIsTheSubjectItselfAndTheDefaultRules() {
        assertEquals("CN=alice,O=Example", SslPrincipalMapping.byDefault().nameOf("CN=alice,O=Example"));
        assertEquals("DEFAULT", SslPrincipalMapping.byDefault().toString());
    }

    @Test
    void aSubjectNoRuleAppliesToNamesNobody() {
        SslPrincipalMapping mapping = SslPrincipalMapping.parse("RULE:^CN=([^,]+),OU=ServiceUsers$/$1/");
        assertNull(mapping.nameOf("CN=alice,OU=Humans"));
        // The pattern must match the whole subject, not a part of it.
        assertNull(SslPrincipalMapping.parse("RULE:CN=([^,]+)/$1/").nameOf("CN=alice,O=Example"));
    }

    @Test
    void escapesInPatternAndReplacement() {
        // A slash in either is written \/; in the replacement \x is x and \$ a dollar sign.
        SslPrincipalMapping mapping = SslPrincipalMapping.parse("RULE:^CN=([^,]+)\\/([^,]+)$/$2\\/$1\\$/");
        assertEquals("b/a$", mapping.nameOf("CN=a/b"));
        // A comma inside a pattern belongs to it; an escaped comma in a subject stays as the subject has it.
        assertEquals(
                "Kafka\\, Inc",
                SslPrincipalMapping.parse("RULE:^CN=((\\\\, *|\\w)+)(,.*|$)/$1/,DEFAULT")
                        .nameOf("CN=Kafka\\, Inc,OU=Unknown"));
    }

    @Test
    void groupNumbersAsJavaReadsThem() {
        // Three groups: $4 names none and stays literal (as Kafka makes it); $12 is group 1 then "2".
        SslPrincipalMapping mapping = SslPrincipalMapping.parse("RULE:^CN=(.),OU=(.),O=(.)$/$1@$4-$12/");
        assertEquals("a@$4-a2", mapping.nameOf("CN=a,OU=b,O=c"));
        assertEquals("CN=a", SslPrincipalMapping.parse("RULE:^CN=(.)$/$0/").nameOf("CN=a"));
    }

    @Test
    void everyMatchIsReplacedAsStringReplaceAllDoes() {
        // ".*" matches the whole subject and then the empty end: the replacement twice, as in Kafka.
        assertEquals("xx", SslPrincipalMapping.parse("RULE:.*/x/").nameOf("CN=a"));
        assertEquals("x", SslPrincipalMapping.parse("RULE:^.*$/x/").nameOf("CN=a"));
    }

    @Test
    void emptyRulesAreIgnored() {
        assertEquals("CN=a", SslPrincipalMapping.parse(" , DEFAULT ,, ").nameOf("CN=a"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                " , ",
                "DEFAULT/L",
                "DEFAULT/U",
                "DEFAULTS",
                "RULE:CN=(.*?),OU=ServiceUsers.*/$1",
                "rule:^CN=(.*?),OU=ServiceUsers.*$/$1/",
                "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U",
                "RULE:^CN=(.*?),OU=ServiceUsers.*$/L",
                "RULE:^CN=(.*?),OU=ServiceUsers.*$/U",
                "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/LU",
                "RULE:^CN=(.*?)$/$1/ L",
                "RULE:^CN=((.*?)$/$1/",
                "RULE:^CN=(.*?)$/${name}/",
                "RULE:^CN=(.*?)$/$x/",
                "RULE:^CN=(.*?)$/a$/",
                "RULE:^CN=.*$/$1/",
                "RULE:^CN=(.*?)$/a\\\\\\/",
                "DEFAULT RULE:^CN=(.*?)$/$1/"
            })
    void rulesKafkaRefusesOrThatCouldOnlyFailLaterAreRefused(String rules) {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> SslPrincipalMapping.parse(rules));
        assertTrue(!refused.getMessage().isBlank());
    }

    @Test
    void theRefusalNamesWhereAndWhy() {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> SslPrincipalMapping.parse("DEFAULT, rule:x/y/"));
        assertEquals("a rule starts with DEFAULT or RULE:, at 10 of DEFAULT, rule:x/y/", refused.getMessage());
        refused = assertThrows(IllegalArgumentException.class, () -> SslPrincipalMapping.parse("RULE:(/x/"));
        assertTrue(
                refused.getMessage().startsWith("RULE:(/x/: the pattern is not a regular expression"),
                refused.getMessage());
    }

    @Test
    void thePrincipalIsUserAndTheNameInRfc2253FormOrAnonymous() {
        X500Principal subject = new X500Principal("CN=alice, OU=ServiceUsers, O=Example");
        assertEquals(
                "User:CN=alice,OU=ServiceUsers,O=Example",
                SslPrincipalMapping.byDefault().principalOf(subject));
        assertEquals("User:alice", SslPrincipalMapping.parse(DOCUMENTED_RULES).principalOf(subject));
        assertEquals(
                KafkaScopes.ANONYMOUS,
                SslPrincipalMapping.parse("RULE:^CN=bob.*$/bob/").principalOf(subject),
                "no rule applies");
        assertEquals(
                KafkaScopes.ANONYMOUS,
                SslPrincipalMapping.byDefault().principalOf(new X500Principal("CN=a\\0Ab")),
                "a name with a control character");
        assertEquals(
                KafkaScopes.ANONYMOUS,
                SslPrincipalMapping.byDefault().principalOf(new X500Principal("CN=" + "a".repeat(300))),
                "a name longer than a limit's");
    }
}
