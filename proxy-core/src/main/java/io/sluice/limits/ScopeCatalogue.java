package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import io.sluice.status.IdentityField;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every scope kind a Sluice knows: those its front ends declare ({@link ProtocolScopes}) and the
 * engine's own, {@link ScopeKind#IPS} and {@link ScopeKind#PROXY}. The limits document is read and written through it
 * ({@link LimitsJson}), and the admin routes, the OpenAPI document, the CLI's scopes
 * ({@code GET /api/v1/scopes}) and the limits metrics are derived from it, so a kind is declared in
 * one place only. The front ends' identity fields are gathered here too ({@link #identityFields()}):
 * the schema of {@code GET /api/v1/throttled} and the throttle metrics' identity labels follow from
 * them.
 *
 * <p>The document's layout follows from the kinds' fields, in a fixed order so that output is
 * stable: in each section first the kinds' fields in the order they were declared (at the top
 * level the front ends' before the proxy's), then at the top level the {@code connection} limits,
 * then the sections ({@code kafka}) in the order their first kind was declared. A limits file
 * written by release 0.1.0 (Pulsar's kinds at the top level) reads and writes as it did. Immutable
 * and thread-safe.
 */
public final class ScopeCatalogue {

    /** The top-level field of the connection limits. */
    public static final String CONNECTION = "connection";

    private final List<String> protocols;
    private final Map<String, ProtocolScopes> byProtocol;
    private final DocumentField.Section root;
    private final List<ScopeKind> kinds;
    private final List<IdentityField> identityFields;

    private ScopeCatalogue(List<ProtocolScopes> declared) {
        Map<String, ProtocolScopes> protocols = new LinkedHashMap<>();
        Layout layout = new Layout(true);
        Set<String> ids = new HashSet<>();
        Set<String> cliNames = new HashSet<>(Set.of(CONNECTION));
        for (ProtocolScopes scopes : declared) {
            if (protocols.put(scopes.protocol(), scopes) != null) {
                throw new IllegalArgumentException("protocol " + scopes.protocol() + " is declared twice");
            }
            for (ScopeKind kind : scopes.kinds()) {
                add(kind, layout, ids, cliNames);
            }
        }
        add(ScopeKind.IPS, layout, ids, cliNames);
        add(ScopeKind.PROXY, layout, ids, cliNames);
        Map<String, IdentityField> identity = new LinkedHashMap<>();
        for (ProtocolScopes scopes : declared) {
            for (IdentityField field : scopes.identity()) {
                IdentityField before = identity.putIfAbsent(field.name(), field);
                if (before != null && !before.equals(field)) {
                    throw new IllegalArgumentException("identity field " + field.name()
                            + " is declared twice, differently: " + before + " and " + field);
                }
            }
        }
        this.identityFields = List.copyOf(identity.values());
        this.protocols = List.copyOf(protocols.keySet());
        this.byProtocol = Map.copyOf(protocols);
        this.root = layout.freeze("");
        List<ScopeKind> inOrder = new ArrayList<>();
        collect(root, inOrder);
        this.kinds = List.copyOf(inOrder);
    }

    /**
     * The catalogue of these front ends' kinds and the proxy.
     *
     * @throws IllegalArgumentException when two kinds share an id, a CLI name or a field, or a
     *     field is also a section
     */
    public static ScopeCatalogue of(ProtocolScopes... protocols) {
        return of(List.of(protocols));
    }

    /** As {@link #of(ProtocolScopes...)}. */
    public static ScopeCatalogue of(List<ProtocolScopes> protocols) {
        return new ScopeCatalogue(protocols);
    }

    /** Every kind, the proxy's included, in the order of the document's fields. */
    public List<ScopeKind> kinds() {
        return kinds;
    }

    /** The protocols of the front ends, in the order they were declared. */
    public List<String> protocols() {
        return protocols;
    }

    /**
     * Every front end's identity fields, each once (two front ends may declare the same field
     * alike), in the order the front ends and their fields were declared.
     */
    public List<IdentityField> identityFields() {
        return identityFields;
    }

    /** The scopes a topic of {@code protocol} may have a limit of its own at; empty for a protocol not declared. */
    public List<ScopeRef> topicScopes(String protocol, String topic) {
        ProtocolScopes scopes = byProtocol.get(protocol);
        return scopes == null ? List.of() : scopes.topicScopes().apply(topic);
    }

    /** Whether {@code kind} is one of this catalogue's. */
    public boolean contains(ScopeKind kind) {
        return kinds.contains(kind);
    }

    /**
     * Checks that {@code limit} sets only parts {@code kind} takes ({@link ScopeKind#accepts()}).
     *
     * @throws InvalidSettingsException naming the first part it does not take, and the kinds that take it
     */
    public void checkParts(ScopeKind kind, Limit limit) {
        for (LimitPart part : LimitPart.values()) {
            if (part.isSetIn(limit) && !kind.accepts().contains(part)) {
                List<String> takers = kinds.stream()
                        .filter(other -> other.accepts().contains(part))
                        .map(ScopeKind::fieldPath)
                        .toList();
                throw new InvalidSettingsException(
                        part.field(),
                        kind.fieldPath() + " limits do not take it; it is a limit of " + String.join(", ", takers)
                                + " only");
            }
        }
    }

    /** The layout of the whole document: its top-level section. */
    public DocumentField.Section document() {
        return root;
    }

    private static void add(ScopeKind kind, Layout layout, Set<String> ids, Set<String> cliNames) {
        if (!ids.add(kind.id())) {
            throw new IllegalArgumentException("scope kind " + kind + " is declared twice");
        }
        if (!cliNames.add(kind.cliName())) {
            throw new IllegalArgumentException("CLI name " + kind.cliName() + " is taken (" + kind + ")");
        }
        Layout section = layout;
        List<String> field = kind.field();
        for (String name : field.subList(0, field.size() - 1)) {
            section = section.section(name, kind);
        }
        section.kind(field.get(field.size() - 1), kind);
    }

    private static void collect(DocumentField.Section section, List<ScopeKind> into) {
        for (DocumentField field : section.fields()) {
            if (field instanceof DocumentField.Kind kind) {
                into.add(kind.kind());
            } else if (field instanceof DocumentField.Section inner) {
                collect(inner, into);
            }
        }
    }

    /** A section of the document while kinds are added. */
    private static final class Layout {

        private final Map<String, ScopeKind> kinds = new LinkedHashMap<>();
        private final Map<String, Layout> sections = new LinkedHashMap<>();
        private final boolean top;

        Layout(boolean top) {
            this.top = top;
        }

        Layout section(String name, ScopeKind of) {
            if (kinds.containsKey(name) || (top && name.equals(CONNECTION))) {
                throw new IllegalArgumentException("field " + of.fieldPath() + " of " + of + " runs through a field");
            }
            return sections.computeIfAbsent(name, n -> new Layout(false));
        }

        void kind(String name, ScopeKind kind) {
            if (kinds.containsKey(name) || sections.containsKey(name) || (top && name.equals(CONNECTION))) {
                throw new IllegalArgumentException("field " + kind.fieldPath() + " of " + kind + " is taken");
            }
            kinds.put(name, kind);
        }

        DocumentField.Section freeze(String name) {
            List<DocumentField> fields = new ArrayList<>();
            kinds.forEach((field, kind) -> fields.add(new DocumentField.Kind(field, kind)));
            if (top) {
                fields.add(new DocumentField.Connection(CONNECTION));
            }
            sections.forEach((field, inner) -> fields.add(inner.freeze(field)));
            return new DocumentField.Section(name, fields);
        }
    }
}
