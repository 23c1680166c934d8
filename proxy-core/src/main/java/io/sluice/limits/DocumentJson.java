package io.sluice.limits;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.TypeFactory;
import io.sluice.settings.InvalidSettingsException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * The JSON form of a whole limits document, laid out by the {@link ScopeCatalogue} that
 * {@link LimitsJson} passes as an attribute of the read or write. A section is read as Jackson
 * reads a record, so that errors, their paths and which of several comes first are those of the
 * records the document was before scopes were data: each field's value is read as the limit (or
 * map of limits, or connection limits) it is; when the section ends, the names of its kinds are
 * checked in its field order, and then the first field it does not have is an unknown field
 * listing those it has.
 */
final class DocumentJson {

    private static final JavaType LIMITS_BY_NAME =
            TypeFactory.defaultInstance().constructMapType(LinkedHashMap.class, String.class, Limit.class);

    private DocumentJson() {}

    /** The catalogue a read or write was given. */
    static ScopeCatalogue catalogue(Object attribute) {
        if (attribute instanceof ScopeCatalogue catalogue) {
            return catalogue;
        }
        throw new IllegalStateException("a limits document is read and written with a scope catalogue");
    }

    /** Reads a {@link LimitsDocument}. */
    static final class Reader extends StdDeserializer<LimitsDocument> {

        Reader() {
            super(LimitsDocument.class);
        }

        @Override
        public LimitsDocument deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            ScopeCatalogue catalogue = catalogue(context.getAttribute(ScopeCatalogue.class));
            Read read = new Read(catalogue);
            section(parser, context, catalogue.document(), read);
            return new LimitsDocument(read.limits, read.connection);
        }

        private static void section(
                JsonParser parser, DeserializationContext context, DocumentField.Section section, Read into)
                throws IOException {
            if (!parser.isExpectedStartObjectToken()) {
                if (parser.currentToken() == JsonToken.VALUE_STRING && blank(parser.getText())) {
                    // As a record's reader refuses it: a coercion from "" that is not allowed.
                    throw InvalidFormatException.from(
                            parser, "a section from an empty string", "", LimitsDocument.class);
                }
                context.handleUnexpectedToken(LimitsDocument.class, parser);
            }
            Map<ScopeKind, Object> values = new HashMap<>();
            Set<String> seen = new HashSet<>();
            List<String> unknown = new ArrayList<>();
            boolean built = false;
            JsonToken token = parser.nextToken();
            while (token == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                DocumentField field = section.field(name);
                JsonToken value = parser.nextToken();
                if (built) {
                    // A record is built once it has every field; a field after that is unknown at once.
                    throw unknownField(parser, name, section);
                }
                if (field == null) {
                    // Read through, as a record's reader keeps an unknown field until it is built.
                    context.bufferForInputBuffering(parser).copyCurrentStructure(parser);
                    unknown.add(name);
                } else if (value != JsonToken.VALUE_NULL) {
                    read(parser, context, field, values, into);
                }
                token = parser.nextToken();
                if (field != null
                        && seen.add(name)
                        && seen.size() == section.fields().size()) {
                    build(section, values, unknown, parser, into);
                    built = true;
                }
            }
            if (!built) {
                build(section, values, unknown, parser, into);
            }
        }

        private static void read(
                JsonParser parser,
                DeserializationContext context,
                DocumentField field,
                Map<ScopeKind, Object> values,
                Read into)
                throws IOException {
            try {
                if (field instanceof DocumentField.Kind kind) {
                    values.put(
                            kind.kind(),
                            kind.kind().named()
                                    ? context.readValue(parser, LIMITS_BY_NAME)
                                    : context.readValue(parser, Limit.class));
                } else if (field instanceof DocumentField.Connection) {
                    into.connection = context.readValue(parser, ConnectionLimits.class);
                } else {
                    section(parser, context, (DocumentField.Section) field, into);
                }
            } catch (Exception e) {
                throw JsonMappingException.wrapWithPath(e, LimitsDocument.class, field.name());
            }
        }

        /** Checks the names of the section's kinds, in its field order, then refuses the first unknown field. */
        private static void build(
                DocumentField.Section section,
                Map<ScopeKind, Object> values,
                List<String> unknown,
                JsonParser parser,
                Read into)
                throws IOException {
            for (DocumentField field : section.fields()) {
                if (field instanceof DocumentField.Kind kind) {
                    into.limits.put(kind.kind(), checked(kind, values.get(kind.kind()), into.catalogue));
                }
            }
            if (!unknown.isEmpty()) {
                throw unknownField(parser, unknown.get(0), section);
            }
        }

        private static UnrecognizedPropertyException unknownField(
                JsonParser parser, String name, DocumentField.Section section) {
            return UnrecognizedPropertyException.from(parser, LimitsDocument.class, name, names(section));
        }

        @SuppressWarnings("unchecked")
        private static SortedMap<String, Limit> checked(
                DocumentField.Kind field, Object value, ScopeCatalogue catalogue) {
            ScopeKind kind = field.kind();
            Map<String, Limit> named =
                    kind.named() || value == null ? (Map<String, Limit>) value : Map.of(kind.soleName(), (Limit) value);
            SortedMap<String, Limit> copy = NamedLimits.checkedCopy(field.name(), named, kind);
            copy.forEach((name, limit) -> {
                try {
                    catalogue.checkParts(kind, limit);
                } catch (InvalidSettingsException e) {
                    throw e.under(field.name() + "[" + InvalidSettingsException.quoted(name) + "]");
                }
            });
            return copy;
        }

        /** Jackson's blank: empty, or only characters up to the space. */
        private static boolean blank(String text) {
            return text.chars().allMatch(c -> c <= ' ');
        }

        private static List<Object> names(DocumentField.Section section) {
            List<Object> names = new ArrayList<>();
            section.fields().forEach(field -> names.add(field.name()));
            return names;
        }
    }

    /** What one read has found so far. */
    private static final class Read {
        final ScopeCatalogue catalogue;
        final Map<ScopeKind, SortedMap<String, Limit>> limits = new HashMap<>();
        ConnectionLimits connection;

        Read(ScopeCatalogue catalogue) {
            this.catalogue = catalogue;
        }
    }

    /** Writes a {@link LimitsDocument}: every field of the layout, an absent single limit (the proxy's) left out. */
    static final class Writer extends StdSerializer<LimitsDocument> {

        Writer() {
            super(LimitsDocument.class);
        }

        @Override
        public void serialize(LimitsDocument document, JsonGenerator generator, SerializerProvider provider)
                throws IOException {
            section(catalogue(provider.getAttribute(ScopeCatalogue.class)).document(), document, generator, provider);
        }

        private static void section(
                DocumentField.Section section,
                LimitsDocument document,
                JsonGenerator generator,
                SerializerProvider provider)
                throws IOException {
            generator.writeStartObject();
            for (DocumentField field : section.fields()) {
                if (field instanceof DocumentField.Kind kind) {
                    ScopeKind scopeKind = kind.kind();
                    if (scopeKind.named()) {
                        provider.defaultSerializeField(field.name(), document.limitsOf(scopeKind), generator);
                    } else {
                        Limit limit = document.limitsOf(scopeKind).get(scopeKind.soleName());
                        if (limit != null) {
                            provider.defaultSerializeField(field.name(), limit, generator);
                        }
                    }
                } else if (field instanceof DocumentField.Connection) {
                    provider.defaultSerializeField(field.name(), document.connection(), generator);
                } else {
                    generator.writeFieldName(field.name());
                    section((DocumentField.Section) field, document, generator, provider);
                }
            }
            generator.writeEndObject();
        }
    }
}
