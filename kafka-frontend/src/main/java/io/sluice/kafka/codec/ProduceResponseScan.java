package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import org.apache.kafka.common.protocol.types.ArrayOf;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Type;

/**
 * One walk of a Produce response's body, in place and without allocating, that answers both
 * questions Sluice asks of every one: does it refuse any partition (a non-zero {@code error_code}:
 * the produce gate then gives back the charge of what the broker did not store,
 * {@link ProduceErrors#refused}), and does it carry node endpoints (the rewriter then reads it
 * whole, {@link NodeEndpointsProbe}). Each walked the whole body on its own before, twice per
 * response.
 *
 * <p>One instance is reused for every response of a connection ({@link ResponseFrame#produceScan}),
 * on its event loop.
 */
public final class ProduceResponseScan {

    private static final Layout[] LAYOUTS = new Layout[HandledApi.PRODUCE.maxVersion() + 1];

    static {
        Schema[] schemas = HandledApi.PRODUCE.key().messageType.responseSchemas();
        for (short version = HandledApi.PRODUCE.minVersion(); version <= HandledApi.PRODUCE.maxVersion(); version++) {
            LAYOUTS[version] = new Layout(schemas[version]);
        }
    }

    /**
     * One version's path to the error codes: the topics array, each topic's first field (its name or
     * id) and partitions array, each partition's index and error code, and what to skip after them.
     */
    private static final class Layout {
        final boolean compact;
        final SchemaSkipper.Struct topic;
        final SchemaSkipper.Struct partition;

        Layout(Schema body) {
            Type topics = body.get(0).def.type;
            compact = topics instanceof CompactArrayOf;
            Schema topicSchema = (Schema) topics.arrayElementType().orElseThrow();
            Type partitions = topicSchema.get(1).def.type;
            if (!(partitions instanceof ArrayOf || partitions instanceof CompactArrayOf)
                    || !body.get(0).def.name.equals("responses")
                    || !((Schema) partitions.arrayElementType().orElseThrow())
                            .get(1)
                            .def
                            .name
                            .equals("error_code")) {
                throw new IllegalStateException("unexpected Produce response schema " + body);
            }
            topic = (SchemaSkipper.Struct) SchemaSkipper.of(topicSchema);
            partition = (SchemaSkipper.Struct)
                    SchemaSkipper.of(partitions.arrayElementType().orElseThrow());
        }
    }

    private boolean refusesAny;
    private boolean carriesNodeEndpoints;

    /**
     * Walks the Produce v{@code version} response {@code frame} (body at {@code bodyIndex}), which
     * stays its owner's. A body that does not fit the schema raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}) and leaves what
     * the previous walk found.
     */
    public void read(FrameView frame, int bodyIndex, short version, WireCursor cursor) {
        if (!HandledApi.PRODUCE.supports(version)) {
            throw new IllegalArgumentException("Produce v" + version + " is not handled");
        }
        Layout layout = LAYOUTS[version];
        cursor.reset(frame, bodyIndex, "bad_response_body");
        boolean refuses = false;
        int topics = length(layout, cursor);
        for (int t = 0; t < topics; t++) {
            layout.topic.skipFields(cursor, 0, 1);
            int partitions = length(layout, cursor);
            for (int p = 0; p < partitions; p++) {
                cursor.skip(Integer.BYTES);
                refuses |= cursor.int16() != 0;
                layout.partition.skipFields(cursor, 2, layout.partition.fieldCount());
            }
            layout.topic.skipFields(cursor, 2, layout.topic.fieldCount());
        }
        carriesNodeEndpoints = NodeEndpointsProbe.carriesNodeEndpointsFrom(HandledApi.PRODUCE, version, cursor, 1);
        refusesAny = refuses;
    }

    /** Whether the response walked last gives any partition an error. */
    public boolean refusesAny() {
        return refusesAny;
    }

    /** Whether the response walked last holds at least one node endpoint. */
    public boolean carriesNodeEndpoints() {
        return carriesNodeEndpoints;
    }

    private static int length(Layout layout, WireCursor cursor) {
        int count = layout.compact ? cursor.compactLength() : cursor.int32();
        if (count < -1 || count > cursor.remaining()) {
            throw cursor.malformed("array of " + count + " elements in " + cursor.remaining() + " bytes");
        }
        return count;
    }
}
