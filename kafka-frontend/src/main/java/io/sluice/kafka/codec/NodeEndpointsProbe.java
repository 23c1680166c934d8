package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Field;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.TaggedFields;

import java.util.EnumMap;
import java.util.Map;

/**
 * Tells, without decoding, whether a response carries broker addresses in a top-level
 * {@code NodeEndpoints} field: the KIP-951 tagged field of Produce (v10+) and Fetch (v16+)
 * responses, the plain field of ShareFetch and ShareAcknowledge responses. Brokers fill it only
 * when a partition's leader moved, so most such responses have none and can be forwarded as they
 * came; this finds out by skipping over the body in place (records included) along the schema.
 */
public final class NodeEndpointsProbe {

    private static final String FIELD = "node_endpoints";

    private static final Map<HandledApi, Layout[]> LAYOUTS = new EnumMap<>(HandledApi.class);

    static {
        for (HandledApi api : new HandledApi[] {
            HandledApi.PRODUCE, HandledApi.FETCH, HandledApi.SHARE_FETCH, HandledApi.SHARE_ACKNOWLEDGE
        }) {
            Schema[] schemas = api.key().messageType.responseSchemas();
            Layout[] layouts = new Layout[api.maxVersion() + 1];
            for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
                layouts[version] = Layout.of(schemas[version]);
            }
            LAYOUTS.put(api, layouts);
        }
    }

    private NodeEndpointsProbe() {}

    /**
     * Whether the body of response {@code frame} (from {@code bodyIndex}) to {@code api}
     * v{@code version} holds at least one node endpoint. A body that does not fit the schema raises
     * a {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}).
     */
    public static boolean carriesNodeEndpoints(
            HandledApi api, short version, FrameView frame, int bodyIndex, WireCursor cursor) {
        if (!hasField(api, version)) {
            return false;
        }
        cursor.reset(frame, bodyIndex, "bad_response_body");
        return LAYOUTS.get(api)[version].carriesNodeEndpoints(cursor, 0);
    }

    /** Whether {@code api} v{@code version} responses have the field at all; an API that never has it is refused. */
    public static boolean hasField(HandledApi api, short version) {
        Layout[] layouts = LAYOUTS.get(api);
        if (layouts == null || !api.supports(version)) {
            throw new IllegalArgumentException(
                    api + " v" + version + " is not a response that can carry node endpoints");
        }
        return layouts[version] != null;
    }

    /**
     * The rest of a body whose top-level fields before {@code fromField} {@code cursor} has read:
     * whether it holds a node endpoint, for a reader that walked the first fields for reasons of
     * its own ({@link ProduceResponseScan}). False when {@code api} v{@code version} has no such field.
     */
    static boolean carriesNodeEndpointsFrom(HandledApi api, short version, WireCursor cursor, int fromField) {
        Layout layout = LAYOUTS.get(api)[version];
        return layout != null && layout.carriesNodeEndpoints(cursor, fromField);
    }

    /** Where the field sits in one version: the top-level fields before it, and how it is held. */
    private static final class Layout {
        private final SchemaSkipper.Struct body;
        private final int fieldIndex;
        private final int tag;

        private Layout(SchemaSkipper.Struct body, int fieldIndex, int tag) {
            this.body = body;
            this.fieldIndex = fieldIndex;
            this.tag = tag;
        }

        /** The layout of one response schema, or null when that version has no such field. */
        static Layout of(Schema schema) {
            SchemaSkipper.Struct body = (SchemaSkipper.Struct) SchemaSkipper.of(schema);
            BoundField[] fields = schema.fields();
            for (int i = 0; i < fields.length; i++) {
                if (fields[i].def.name.equals(FIELD)) {
                    requireCompactArray(fields[i].def, schema);
                    return new Layout(body, i, -1);
                }
                if (fields[i].def.type instanceof TaggedFields tagged) {
                    for (Map.Entry<Integer, Field> entry : tagged.fields().entrySet()) {
                        if (entry.getValue().name.equals(FIELD)) {
                            requireCompactArray(entry.getValue(), schema);
                            return new Layout(body, i, entry.getKey());
                        }
                    }
                }
            }
            return null;
        }

        /** The probe reads only the element count, which it can do for a compact array alone. */
        private static void requireCompactArray(Field field, Schema schema) {
            if (!(field.type instanceof CompactArrayOf)) {
                throw new IllegalStateException("expected " + FIELD + " as a compact array in " + schema);
            }
        }

        boolean carriesNodeEndpoints(WireCursor cursor, int fromField) {
            body.skipFields(cursor, fromField, fieldIndex);
            if (tag < 0) {
                if (cursor.compactLength() > 0) {
                    return true;
                }
                // None: the rest must still be there, as it must when the field is tagged.
                body.skipFields(cursor, fieldIndex + 1, body.fieldCount());
                return false;
            }
            SchemaSkipper.Tagged tagged = (SchemaSkipper.Tagged) body.field(fieldIndex);
            int count = SchemaSkipper.Tagged.count(cursor);
            for (int i = 0; i < count; i++) {
                int fieldTag = cursor.unsignedVarint();
                int size = cursor.unsignedVarint();
                // Read as kafka-clients reads it: by type, whatever the size says; and as a tag may
                // repeat (the client keeps the last), every occurrence counts.
                if (fieldTag == tag) {
                    if (cursor.compactLength() > 0) {
                        return true;
                    }
                } else {
                    tagged.skipField(cursor, fieldTag, size);
                }
            }
            return false;
        }
    }
}
