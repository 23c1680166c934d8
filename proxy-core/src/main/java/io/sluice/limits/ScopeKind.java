package io.sluice.limits;

import io.sluice.address.CidrBlock;
import io.sluice.settings.InvalidSettingsException;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A level limits are set at, declared once as data by the front end whose traffic it covers (a
 * Pulsar namespace, a Kafka topic prefix); the proxy-wide scope, {@link #PROXY}, is the engine's
 * own and shared by all. A kind says everything the rest of Sluice derives from it: where its
 * limits sit in the limits document ({@link #field()}), how its scopes are named and which names
 * are valid ({@link #nameTemplate()}, {@link #checkName}), what the CLI calls it ({@link #cliName()}),
 * its label in messages and metrics ({@link #label()}) and its place in its protocol's chain
 * ({@link #rank()}). A {@link ScopeCatalogue} gathers every front end's kinds; the admin routes,
 * the OpenAPI document, the CLI's scopes and the limits metrics follow from it.
 *
 * <p>The engine never branches on which kind it has. Kinds are immutable; two kinds are equal when
 * their {@link #id()} is, and a catalogue holds one kind per id.
 */
public final class ScopeKind {

    /** The name of the single proxy-wide scope. */
    public static final String PROXY_NAME = "proxy";

    /**
     * The name of the default entry of a kind that has one ({@link #hasDefault()}): the limit of
     * each scope of the kind that has no entry of its own, each in a bucket of its own.
     */
    public static final String DEFAULT_NAME = "*";

    /** The rank of the proxy scope: last in every chain. */
    public static final int LAST = Integer.MAX_VALUE;

    /** Everything through this proxy, whatever the protocol: its messages and its requests. */
    public static final ScopeKind PROXY = builder(null, "proxy")
            .field("proxy")
            .cliName("proxy")
            .accepts(LimitPart.PUBLISH, LimitPart.DISPATCH, LimitPart.REQUESTS)
            .rank(LAST)
            .description("the whole proxy (all topics together)")
            .build();

    /**
     * Client addresses, whatever the protocol (docs/REFERENCE.md, "Limits by client address"):
     * {@code "ips": {"10.1.0.0/16": LIMIT, "*": LIMIT}}. A name is a CIDR block, kept canonical
     * ({@link CidrBlock}); the longest block that holds an address limits it
     * ({@link AddressScopes}), and {@code "*"} each address no block holds, apart. Takes rates of
     * new connections and of requests only.
     */
    public static final ScopeKind IPS = builder(null, "ip")
            .field("ips")
            .cliName("ip")
            .named(
                    NameTemplate.of(
                            "{cidr}",
                            NameParameter.of("cidr")
                                    .described("a CIDR block (10.1.0.0/16, 2001:db8::/32) or one address")),
                    CidrBlock::parse,
                    "10.1.0.0/16")
            .canonicalName(name -> CidrBlock.parse(name).toString())
            .withDefault()
            .accepts(LimitPart.CONNECTIONS, LimitPart.REQUESTS)
            .rank(LAST - 1)
            .description("one block of client addresses (all its connections together), or each address (\"*\")")
            .build();

    private final String protocol;
    private final String label;
    private final List<String> field;
    private final String cliName;
    private final NameTemplate nameTemplate;
    private final NameRule nameRule;
    private final String example;
    private final int rank;
    private final String description;
    private final boolean hasDefault;
    private final UnaryOperator<String> canonicalName;
    private final Set<LimitPart> accepts;

    private ScopeKind(Builder builder) {
        this.protocol = builder.protocol;
        this.label = builder.label;
        this.field = builder.field;
        this.cliName = builder.cliName;
        this.nameTemplate = builder.nameTemplate;
        this.nameRule = builder.nameRule;
        this.example = builder.example;
        this.rank = builder.rank;
        this.description = builder.description;
        this.hasDefault = builder.hasDefault;
        this.canonicalName = builder.canonicalName;
        this.accepts = Set.copyOf(builder.accepts);
    }

    /**
     * Starts the declaration of a kind.
     *
     * @param protocol the protocol whose traffic it covers, e.g. {@code kafka}; {@code null} only for {@link #PROXY}
     * @param label lower-case, for messages and the {@code scope} metrics label: {@code topic}, {@code prefix}
     */
    public static Builder builder(String protocol, String label) {
        return new Builder(protocol, label);
    }

    /** The protocol whose traffic this scope covers, {@code pulsar} or {@code kafka}; {@code null} for the proxy. */
    public String protocol() {
        return protocol;
    }

    /** Lower-case label for messages and the {@code scope} metrics label: {@code topic}, {@code prefix}, ... */
    public String label() {
        return label;
    }

    /**
     * The stable key of this kind, the same in every Sluice and release, part of each bucket's id in
     * the cluster store: {@code protocol_label} ({@code pulsar_topic}, {@code kafka_prefix}), or the
     * label alone for the proxy ({@code proxy}).
     */
    public String id() {
        return protocol == null ? label : protocol + "_" + label;
    }

    /** Where this kind's limits sit in the limits document: {@code [topics]}, {@code [kafka, prefixes]}. */
    public List<String> field() {
        return field;
    }

    /** {@link #field()} as a JSON path: {@code topics}, {@code kafka.prefixes}. */
    public String fieldPath() {
        return String.join(".", field);
    }

    /** How the CLI names this kind: {@code topic}, {@code kafka-prefix}, {@code proxy}. */
    public String cliName() {
        return cliName;
    }

    /**
     * Whether this kind has many scopes, each with a name (a topic), kept in the document as an
     * object of limits by name; a kind with one scope (the proxy) keeps its limit itself.
     */
    public boolean named() {
        return nameTemplate != null;
    }

    /** How a name is written from its parts ({@code {tenant}/{namespace}}); {@code null} for a kind with one scope. */
    public NameTemplate nameTemplate() {
        return nameTemplate;
    }

    /** The name of the one scope of a kind that is not {@link #named()}: its label ({@link #PROXY_NAME} for the proxy). */
    public String soleName() {
        return label;
    }

    /**
     * Checks {@code name} with this kind's rule; a kind with one scope takes only {@link #soleName()},
     * and a kind with a default also {@link #DEFAULT_NAME}.
     *
     * @throws InvalidSettingsException (with an empty path) when the name breaks the rule
     */
    public void checkName(String name) {
        if (hasDefault && DEFAULT_NAME.equals(name)) {
            return;
        }
        if (named()) {
            nameRule.check(name);
        } else if (!soleName().equals(name)) {
            throw new InvalidSettingsException(
                    "",
                    "must be " + InvalidSettingsException.quoted(soleName()) + ", got "
                            + InvalidSettingsException.quoted(name));
        }
    }

    /**
     * The name as the limits document keeps it: {@code name} checked ({@link #checkName}) and, for a
     * kind that writes names one way (a CIDR block: {@code 10.1.2.3/16} is {@code 10.1.0.0/16}),
     * written that way.
     *
     * @throws InvalidSettingsException (with an empty path) when the name breaks the rule
     */
    public String canonicalName(String name) {
        checkName(name);
        return DEFAULT_NAME.equals(name) && hasDefault ? name : canonicalName.apply(name);
    }

    /** The parts of a {@link Limit} this kind takes: publish and dispatch unless it declares others. */
    public Set<LimitPart> accepts() {
        return accepts;
    }

    /**
     * Whether this kind's {@link #DEFAULT_NAME} entry limits each of its scopes that has no entry
     * of its own, each in its own bucket (as Kafka's {@code <default>} quotas do): a kind of
     * identities, whose names nobody can list in advance.
     */
    public boolean hasDefault() {
        return hasDefault;
    }

    /** A valid name, for examples in help and documentation; {@code null} for a kind with one scope. */
    public String example() {
        return example;
    }

    /**
     * This kind's place in its protocol's chain: a resource's scopes are charged in rank order,
     * lowest (most specific) first, and the proxy ({@link #LAST}) last. Kinds of one rank keep the
     * order their chain lists them in (a Pulsar partition before its partitioned topic).
     */
    public int rank() {
        return rank;
    }

    /**
     * What one scope of this kind covers, as the phrase after "the limit of":
     * {@code one namespace (all its topics together)}.
     */
    public String description() {
        return description;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScopeKind kind && kind.id().equals(id());
    }

    @Override
    public int hashCode() {
        return id().hashCode();
    }

    /** The {@link #id()}. */
    @Override
    public String toString() {
        return id();
    }

    /** The parts of a kind's declaration; every part but the name is required. */
    public static final class Builder {

        private final String protocol;
        private final String label;
        private List<String> field;
        private String cliName;
        private NameTemplate nameTemplate;
        private NameRule nameRule;
        private String example;
        private Integer rank;
        private String description;
        private boolean hasDefault;
        private UnaryOperator<String> canonicalName = UnaryOperator.identity();
        private Set<LimitPart> accepts = EnumSet.of(LimitPart.PUBLISH, LimitPart.DISPATCH);

        private Builder(String protocol, String label) {
            this.protocol = protocol;
            this.label = Objects.requireNonNull(label, "label");
        }

        /** The path of this kind's limits in the document: {@code field("kafka", "prefixes")}. */
        public Builder field(String... path) {
            if (path.length == 0) {
                throw new IllegalArgumentException("a field path has at least one name");
            }
            this.field = List.of(path);
            return this;
        }

        /** The CLI's name of this kind: {@code kafka-prefix}. */
        public Builder cliName(String name) {
            this.cliName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Makes this a kind of many named scopes.
         *
         * @param template how a name is written from the parts a REST path gives it
         * @param rule throws {@link InvalidSettingsException} for a name that is not valid
         * @param example a valid name
         */
        public Builder named(NameTemplate template, NameRule rule, String example) {
            this.nameTemplate = Objects.requireNonNull(template, "template");
            this.nameRule = Objects.requireNonNull(rule, "rule");
            this.example = Objects.requireNonNull(example, "example");
            return this;
        }

        /** The place in the protocol's chain; see {@link ScopeKind#rank()}. */
        public Builder rank(int rank) {
            this.rank = rank;
            return this;
        }

        /** Gives a named kind a default entry; see {@link ScopeKind#hasDefault()}. */
        public Builder withDefault() {
            this.hasDefault = true;
            return this;
        }

        /** How a valid name is written in the document; see {@link ScopeKind#canonicalName}. */
        public Builder canonicalName(UnaryOperator<String> canonical) {
            this.canonicalName = Objects.requireNonNull(canonical, "canonical");
            return this;
        }

        /** The parts of a limit this kind takes, instead of publish and dispatch; see {@link ScopeKind#accepts()}. */
        public Builder accepts(LimitPart first, LimitPart... more) {
            this.accepts = EnumSet.of(first, more);
            return this;
        }

        /** See {@link ScopeKind#description()}. */
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /** @throws IllegalStateException when a required part is missing */
        public ScopeKind build() {
            if (field == null || cliName == null || rank == null || description == null) {
                throw new IllegalStateException(
                        "scope kind " + label + " needs a field, a CLI name, a rank and a description");
            }
            if (hasDefault && nameTemplate == null) {
                throw new IllegalStateException("scope kind " + label + " has one scope and so no default");
            }
            return new ScopeKind(this);
        }
    }
}
