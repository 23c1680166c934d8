package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Type;

import java.util.EnumMap;
import java.util.Map;

/**
 * The {@code throttle_time_ms} of a response, raised in place: how long the client must not send
 * to this broker (KIP-219). Fetch and nearly every other response have it first; Produce after
 * its partitions, which are skipped along the schema to find it.
 */
public final class ThrottleTimeField {

    private static final String FIELD = "throttle_time_ms";
    private static final Map<HandledApi, int[]> FIELD_INDEXES = new EnumMap<>(HandledApi.class);
    private static final Map<HandledApi, SchemaSkipper.Struct[]> BODIES = new EnumMap<>(HandledApi.class);

    static {
        for (HandledApi api : new HandledApi[] {HandledApi.PRODUCE, HandledApi.FETCH}) {
            Schema[] schemas = api.key().messageType.responseSchemas();
            int[] indexes = new int[api.maxVersion() + 1];
            SchemaSkipper.Struct[] bodies = new SchemaSkipper.Struct[api.maxVersion() + 1];
            for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
                indexes[version] = fieldIndex(schemas[version]);
                bodies[version] = (SchemaSkipper.Struct) SchemaSkipper.of(schemas[version]);
            }
            FIELD_INDEXES.put(api, indexes);
            BODIES.put(api, bodies);
        }
    }

    private ThrottleTimeField() {}

    /**
     * Sets the throttle time of response {@code frame} (to {@code api} v{@code version}, body at
     * {@code bodyIndex}) to {@code millis} if that is longer than the broker's own, writing into the
     * frame's bytes (a lent frame's too: they are the response's alone until it goes to the client). A body that does not fit the schema raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}).
     *
     * @return the throttle time the frame says now
     */
    public static int raise(
            HandledApi api, short version, FrameView frame, int bodyIndex, int millis, WireCursor cursor) {
        int[] indexes = FIELD_INDEXES.get(api);
        if (indexes == null || !api.supports(version)) {
            throw new IllegalArgumentException(api + " v" + version + " is not a response with a throttle time");
        }
        cursor.reset(frame, bodyIndex, "bad_response_body");
        BODIES.get(api)[version].skipFields(cursor, 0, indexes[version]);
        int at = cursor.index();
        int broker = cursor.int32();
        if (millis > broker) {
            frame.buffer().setInt(at, millis);
            return millis;
        }
        return broker;
    }

    /**
     * Whether a response to {@code apiKey} v{@code version}, as the pinned kafka-clients knows it,
     * starts its body with {@code throttle_time_ms}, as nearly every response but Produce's does
     * from the version that has the field; false for a version or API it does not know.
     */
    public static boolean leadsBody(short apiKey, short version) {
        if (!ApiKeys.hasId(apiKey)) {
            return false;
        }
        Schema[] schemas = ApiKeys.forId(apiKey).messageType.responseSchemas();
        if (version < 0 || version >= schemas.length || schemas[version] == null) {
            return false;
        }
        BoundField[] fields = schemas[version].fields();
        return fields.length > 0 && fields[0].def.name.equals(FIELD) && fields[0].def.type == Type.INT32;
    }

    /**
     * Sets the leading throttle time of response {@code frame}, one that {@link #leadsBody}, body at
     * {@code bodyIndex}, to {@code millis} if that is longer than the broker's own, in the frame's
     * bytes. A body too short to hold it raises a {@link io.sluice.relay.MalformedFrameException}
     * ({@code bad_response_body}).
     *
     * @return the throttle time the frame says now
     */
    public static int raiseLeading(FrameView frame, int bodyIndex, int millis, WireCursor cursor) {
        cursor.reset(frame, bodyIndex, "bad_response_body");
        int broker = cursor.int32();
        if (millis > broker) {
            frame.buffer().setInt(bodyIndex, millis);
            return millis;
        }
        return broker;
    }

    private static int fieldIndex(Schema schema) {
        BoundField[] fields = schema.fields();
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].def.name.equals(FIELD)) {
                if (fields[i].def.type != Type.INT32) {
                    throw new IllegalStateException(FIELD + " is not an int32 in " + schema);
                }
                return i;
            }
        }
        throw new IllegalStateException("no " + FIELD + " in " + schema);
    }
}
