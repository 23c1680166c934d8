package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import io.sluice.status.IdentityField;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScopeCatalogueTest {

    private static ScopeKind kind(String protocol, String label, String cliName, String... field) {
        return ScopeKind.builder(protocol, label)
                .field(field)
                .cliName(cliName)
                .named(NameTemplate.of("{name}", NameParameter.of("name")), NameRule.ANY, "x")
                .rank(10)
                .description("one " + label)
                .build();
    }

    private static ProtocolScopes protocol(String name, ScopeKind... kinds) {
        return new ProtocolScopes(name, List.of(kinds), topic -> List.of(), List.of());
    }

    @Test
    void identityFieldsAreEveryFrontEndsEachOnceAndTwoDeclarationsOfOneNameMustAgree() {
        IdentityField user = IdentityField.label("user", "the user");
        IdentityField session = IdentityField.integer("session", "the session");
        ScopeCatalogue catalogue = ScopeCatalogue.of(
                new ProtocolScopes("a", List.of(), topic -> List.of(), List.of(user, session)),
                new ProtocolScopes("b", List.of(), topic -> List.of(), List.of(user)));
        assertEquals(List.of(user, session), catalogue.identityFields());

        IllegalArgumentException clash = assertThrows(
                IllegalArgumentException.class,
                () -> ScopeCatalogue.of(
                        new ProtocolScopes("a", List.of(), topic -> List.of(), List.of(user)),
                        new ProtocolScopes(
                                "b", List.of(), topic -> List.of(), List.of(IdentityField.text("user", "x")))));
        assertTrue(clash.getMessage().contains("identity field user"), clash.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> new ProtocolScopes("a", List.of(), topic -> List.of(), List.of(user, user)));
        assertThrows(IllegalArgumentException.class, () -> session.of("not a number"));
    }

    @Test
    void kindsAreInTheOrderOfTheDocumentsFields() {
        ScopeKind early = kind("late", "topic", "late-topic", "late", "topics");
        ScopeCatalogue catalogue = ScopeCatalogue.of(
                TestScopes.PROTOCOL, protocol("late", early, kind("late", "group", "group", "groups")));
        assertEquals(
                List.of(
                        TestScopes.TOPIC,
                        TestScopes.NAMESPACE,
                        TestScopes.TENANT,
                        catalogue.kinds().get(3),
                        ScopeKind.IPS,
                        ScopeKind.PROXY,
                        TestScopes.CLIENT,
                        early),
                catalogue.kinds(),
                "the top level's kinds, the engine's (ips, proxy), then each section's in the order the sections came");
        assertEquals("late_group", catalogue.kinds().get(3).id());
        assertEquals(List.of("test", "late"), catalogue.protocols());
        assertTrue(catalogue.contains(ScopeKind.PROXY));
        assertFalse(TestScopes.CATALOGUE.contains(early));
        assertEquals(
                List.of(
                        TestScopes.ref(TestScopes.TOPIC, "a/b/c-partition-1"),
                        TestScopes.ref(TestScopes.TOPIC, "a/b/c")),
                TestScopes.CATALOGUE.topicScopes("test", "a/b/c-partition-1"));
        assertEquals(List.of(), TestScopes.CATALOGUE.topicScopes("other", "a/b/c"));
    }

    @Test
    void aKindIsDeclaredOnceWithAFieldOfItsOwn() {
        assertThrows(IllegalArgumentException.class, () -> ScopeCatalogue.of(TestScopes.PROTOCOL, TestScopes.PROTOCOL));
        refused("one id", kind("a", "x", "one", "xs"), kind("a", "x", "two", "ys"));
        refused("one CLI name", kind("a", "x", "same", "xs"), kind("a", "y", "same", "ys"));
        refused("one field", kind("a", "x", "one", "xs"), kind("a", "y", "two", "xs"));
        refused("a field is no section", kind("a", "x", "one", "xs"), kind("a", "y", "two", "xs", "ys"));
        refused("a section is no field", kind("a", "y", "two", "xs", "ys"), kind("a", "x", "one", "xs"));
        refused("the proxy's field", kind("a", "x", "one", "proxy"));
        refused("the connection limits' field", kind("a", "x", "one", "connection"));
        refused("the connection limits' CLI name", kind("a", "x", "connection", "xs"));
        assertThrows(
                IllegalArgumentException.class,
                () -> ScopeCatalogue.of(protocol("b", kind("a", "x", "one", "xs"))),
                "a kind of another protocol");
    }

    private static void refused(String why, ScopeKind... kinds) {
        assertThrows(IllegalArgumentException.class, () -> ScopeCatalogue.of(protocol("a", kinds)), why);
    }

    @Test
    void aKindsIdIsItsProtocolAndLabel() {
        assertEquals("test_topic", TestScopes.TOPIC.id());
        assertEquals("proxy", ScopeKind.PROXY.id());
        assertEquals(TestScopes.TOPIC, kind("test", "topic", "other", "elsewhere"), "kinds are equal by id");
        assertEquals("test.clients", TestScopes.CLIENT.fieldPath());
        assertEquals(ScopeKind.PROXY_NAME, ScopeKind.PROXY.soleName());
        assertFalse(ScopeKind.PROXY.named());
        ScopeKind.PROXY.checkName("proxy");
        assertThrows(InvalidSettingsException.class, () -> ScopeKind.PROXY.checkName("other"));
        assertThrows(
                IllegalStateException.class, () -> ScopeKind.builder("a", "b").build());
    }
}
