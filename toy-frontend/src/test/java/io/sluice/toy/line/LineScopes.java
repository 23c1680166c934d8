package io.sluice.toy.line;

import io.sluice.limits.NameParameter;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.ProtocolScopes;
import io.sluice.limits.ScopeChain;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.settings.InvalidSettingsException;

import java.util.List;

/** The line protocol's one scope kind, a topic, declared once: routes, OpenAPI, CLI and metrics follow. */
final class LineScopes {

    static final String PROTOCOL = "line";

    private static final String TOPIC_NAME = "[a-z0-9._-]{1,64}";

    static final ScopeKind TOPIC = ScopeKind.builder(PROTOCOL, "topic")
            .field("line", "topics")
            .cliName("line-topic")
            .named(
                    NameTemplate.of(
                            "{topic}",
                            NameParameter.of("topic")
                                    .described("A line topic: 1 to 64 characters of [a-z0-9._-]")
                                    .matching("^" + TOPIC_NAME + "$")),
                    LineScopes::checkTopic,
                    "orders")
            .rank(10)
            .description("one topic of the line protocol")
            .build();

    static final ProtocolScopes DECLARED =
            new ProtocolScopes(PROTOCOL, List.of(TOPIC), topic -> List.of(new ScopeRef(TOPIC, topic)), List.of());

    private LineScopes() {}

    static boolean isTopic(String name) {
        return name.matches(TOPIC_NAME);
    }

    /** A topic's chain: only itself (the engine adds the proxy scope). */
    static ScopeChain chain(String topic) {
        List<ScopeRef> scopes = List.of(new ScopeRef(TOPIC, topic));
        return limits -> scopes;
    }

    private static void checkTopic(String name) {
        if (!isTopic(name)) {
            throw new InvalidSettingsException(
                    "", "a line topic is 1 to 64 characters of [a-z0-9._-], got '" + name + "'");
        }
    }
}
