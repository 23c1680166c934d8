package io.sluice.limits;

import java.util.List;

/**
 * One field of the limits document or of a section of it, in the order a {@link ScopeCatalogue}
 * lays the document out ({@link ScopeCatalogue#document()}): the limits of a kind, the connection
 * limits, or a section of more fields. What the JSON form, the OpenAPI schema of the document and
 * the list of scopes follow.
 */
public sealed interface DocumentField {

    /** The field's name in its section. */
    String name();

    /** The limits of one scope kind: an object of limits by name, or one limit. */
    record Kind(String name, ScopeKind kind) implements DocumentField {}

    /** The connection limits, at the top level. */
    record Connection(String name) implements DocumentField {}

    /** A section: an object of more fields, such as {@code kafka}. */
    record Section(String name, List<DocumentField> fields) implements DocumentField {

        public Section {
            fields = List.copyOf(fields);
        }

        /** The field called {@code name}, or {@code null}. */
        public DocumentField field(String name) {
            for (DocumentField field : fields) {
                if (field.name().equals(name)) {
                    return field;
                }
            }
            return null;
        }
    }
}
