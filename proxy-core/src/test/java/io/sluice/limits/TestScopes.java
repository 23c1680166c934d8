package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The scope kinds of a made-up protocol, {@code test}, for the engine's own tests: a topic
 * {@code tenant/namespace/name} falls under itself (a name ending {@code -partition-N} under its
 * partitioned topic too), its namespace and its tenant, each at the top level of the document, and
 * under the client that sends to it, in a section {@code test} of the document.
 */
public final class TestScopes {

    private static final Pattern PART = Pattern.compile("[-.\\w]+");
    private static final Pattern PARTITION = Pattern.compile("(.+)-partition-\\d+");

    public static final ScopeKind TOPIC = ScopeKind.builder("test", "topic")
            .field("topics")
            .cliName("topic")
            .named(
                    NameTemplate.of(
                            "{tenant}/{namespace}/{topic}",
                            NameParameter.of("tenant"),
                            NameParameter.of("namespace"),
                            NameParameter.of("topic")),
                    name -> parts(name, 3, "a topic tenant/namespace/topic"),
                    "public/default/orders")
            .rank(10)
            .description("one test topic")
            .build();

    public static final ScopeKind NAMESPACE = ScopeKind.builder("test", "namespace")
            .field("namespaces")
            .cliName("namespace")
            .named(
                    NameTemplate.of("{tenant}/{namespace}", NameParameter.of("tenant"), NameParameter.of("namespace")),
                    name -> parts(name, 2, "a namespace tenant/namespace"),
                    "public/default")
            .rank(20)
            .description("one test namespace")
            .build();

    public static final ScopeKind TENANT = ScopeKind.builder("test", "tenant")
            .field("tenants")
            .cliName("tenant")
            .named(
                    NameTemplate.of("{tenant}", NameParameter.of("tenant")),
                    name -> parts(name, 1, "a tenant"),
                    "public")
            .rank(30)
            .description("one test tenant")
            .build();

    public static final ScopeKind CLIENT = ScopeKind.builder("test", "client")
            .field("test", "clients")
            .cliName("test-client")
            .named(NameTemplate.of("{client}", NameParameter.of("client")), TestScopes::client, "billing")
            .withDefault()
            .rank(40)
            .description("everything one test client sends")
            .build();

    public static final ProtocolScopes PROTOCOL =
            new ProtocolScopes("test", List.of(TOPIC, NAMESPACE, TENANT, CLIENT), TestScopes::topicScopes, List.of());

    public static final ScopeCatalogue CATALOGUE = ScopeCatalogue.of(PROTOCOL);

    private TestScopes() {}

    /** A scope of {@code kind} called {@code name}. */
    public static ScopeRef ref(ScopeKind kind, String name) {
        return new ScopeRef(kind, name);
    }

    /** The chain of a topic; a name that breaks the topic rule falls under the proxy alone. */
    public static ScopeChain topic(String topic) {
        return topic(topic, null);
    }

    /** The chain of a topic sent to by {@code client} ({@code null} for none). */
    public static ScopeChain topic(String topic, String client) {
        List<ScopeRef> scopes = new ArrayList<>(topicScopes(topic));
        if (!scopes.isEmpty()) {
            String[] parts = topic.split("/");
            scopes.add(ref(NAMESPACE, parts[0] + "/" + parts[1]));
            scopes.add(ref(TENANT, parts[0]));
        }
        if (client != null) {
            scopes.add(ref(CLIENT, client));
        }
        List<ScopeRef> chain = List.copyOf(scopes);
        return limits -> chain;
    }

    /** A topic's own scopes: itself, then for a partition its partitioned topic. */
    public static List<ScopeRef> topicScopes(String topic) {
        try {
            TOPIC.checkName(topic);
        } catch (InvalidSettingsException notATopic) {
            return List.of();
        }
        var partition = PARTITION.matcher(topic);
        return partition.matches()
                ? List.of(ref(TOPIC, topic), ref(TOPIC, partition.group(1)))
                : List.of(ref(TOPIC, topic));
    }

    private static void parts(String name, int count, String what) {
        String[] parts = name == null ? new String[0] : name.split("/", -1);
        boolean valid = parts.length == count;
        for (String part : parts) {
            valid &= PART.matcher(part).matches();
        }
        if (!valid) {
            throw new InvalidSettingsException(
                    "", "must be " + what + ", got " + InvalidSettingsException.quoted(name));
        }
    }

    private static void client(String name) {
        if (name == null || name.isEmpty()) {
            throw new InvalidSettingsException(
                    "", "must be a client name, got " + InvalidSettingsException.quoted(name));
        }
    }
}
