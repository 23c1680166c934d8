package io.sluice.limits;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NameTemplateTest {

    private static final NameTemplate TOPIC = NameTemplate.of(
            "{domain}://{tenant}/{namespace}/{topic}",
            NameParameter.of("domain"),
            NameParameter.of("tenant"),
            NameParameter.of("namespace"),
            NameParameter.of("topic"));

    @Test
    void joinsAndSplitsAName() {
        Map<String, String> parts =
                Map.of("domain", "persistent", "tenant", "public", "namespace", "default", "topic", "a b");
        assertEquals("persistent://public/default/a b", TOPIC.join(parts));
        assertEquals(parts, TOPIC.split("persistent://public/default/a b"));
        assertEquals("domain://tenant/namespace/topic", TOPIC.form());
        assertEquals("{domain}://{tenant}/{namespace}/{topic}", TOPIC.template());
    }

    @Test
    void aNameOfAnotherFormDoesNotSplit() {
        assertNull(TOPIC.split("orders"));
        assertNull(TOPIC.split("persistent://public/orders"));
        assertNull(TOPIC.split("persistent://public/default/a/b"), "a part holding the template's text");
        assertEquals("", TOPIC.split("persistent://public//x").get("namespace"), "empty parts are the caller's");
        NameTemplate any = NameTemplate.of("{clientId}", NameParameter.of("clientId"));
        assertEquals(Map.of("clientId", "billing/eu service"), any.split("billing/eu service"));
        NameTemplate framed = NameTemplate.of("User:{name}!", NameParameter.of("name"));
        assertEquals(Map.of("name", "alice"), framed.split("User:alice!"));
        assertNull(framed.split("User:alice"));
        assertNull(framed.split("User:!x!"));
        assertEquals("User:bob!", framed.join(Map.of("name", "bob")));
    }

    @Test
    void aTemplateIsReadFromItsTextAlone() {
        NameTemplate read = NameTemplate.parse(TOPIC.template());
        assertEquals(TOPIC.template(), read.template());
        assertEquals(
                List.of("domain", "tenant", "namespace", "topic"),
                read.parameters().stream().map(NameParameter::name).toList());
        assertEquals(TOPIC.split("persistent://a/b/c"), read.split("persistent://a/b/c"));
        assertThrows(IllegalArgumentException.class, () -> NameTemplate.parse("plain"));
        assertThrows(IllegalArgumentException.class, () -> NameTemplate.parse("{a"));
    }

    @Test
    void theTemplateAndItsParametersMustAgree() {
        assertThrows(
                IllegalArgumentException.class,
                () -> NameTemplate.of("{a}{b}", NameParameter.of("a"), NameParameter.of("b")));
        assertThrows(IllegalArgumentException.class, () -> NameTemplate.of("{a}/{b}", NameParameter.of("a")));
        assertThrows(
                IllegalArgumentException.class,
                () -> NameTemplate.of("{a}/{b}", NameParameter.of("b"), NameParameter.of("a")));
        assertThrows(IllegalArgumentException.class, () -> NameTemplate.of("plain"));
        assertThrows(IllegalArgumentException.class, () -> NameTemplate.of("{a", NameParameter.of("a")));
        assertThrows(IllegalArgumentException.class, () -> NameTemplate.of("a}{a}", NameParameter.of("a")));
        assertThrows(IllegalArgumentException.class, () -> TOPIC.join(Map.of("domain", "persistent")));
    }
}
