package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.types.ArrayOf;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Type;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a Produce response refuses any partition (a non-zero {@code error_code}), read in place
 * along the response's schema without allocating: a gate that charged the partitions it forwarded
 * looks closer, and gives back the charge of what the broker did not store, only when one is.
 */
public final class ProduceErrors {

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

    private ProduceErrors() {}

    /**
     * True when the Produce v{@code version} response {@code frame} (body at {@code bodyIndex})
     * gives any partition an error. A body that does not fit the schema raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}).
     */
    public static boolean any(FrameView frame, int bodyIndex, short version, WireCursor cursor) {
        if (!HandledApi.PRODUCE.supports(version)) {
            throw new IllegalArgumentException("Produce v" + version + " is not handled");
        }
        Layout layout = LAYOUTS[version];
        cursor.reset(frame, bodyIndex, "bad_response_body");
        int topics = length(layout, cursor);
        for (int t = 0; t < topics; t++) {
            layout.topic.skipFields(cursor, 0, 1);
            int partitions = length(layout, cursor);
            for (int p = 0; p < partitions; p++) {
                cursor.skip(Integer.BYTES);
                if (cursor.int16() != 0) {
                    return true;
                }
                layout.partition.skipFields(cursor, 2, layout.partition.fieldCount());
            }
            layout.topic.skipFields(cursor, 2, layout.topic.fieldCount());
        }
        return false;
    }

    /**
     * The partitions the response {@code frame} refuses, each as its topic's name (or, from v13, id)
     * and index: the slow path after {@link #any} said there are some, allocating as it reads.
     */
    public static List<Refused> refused(FrameView frame, int bodyIndex, short version) {
        ProduceResponseData response =
                MessageFrames.read(new ProduceResponseData(), frame, bodyIndex, version, "bad_response_body");
        List<Refused> refused = new ArrayList<>();
        for (ProduceResponseData.TopicProduceResponse topic : response.responses()) {
            for (ProduceResponseData.PartitionProduceResponse partition : topic.partitionResponses()) {
                if (partition.errorCode() != 0) {
                    refused.add(new Refused(topic.name(), topic.topicId(), partition.index()));
                }
            }
        }
        return refused;
    }

    /**
     * A partition a Produce response refuses.
     *
     * @param topic the topic's name; empty from v13 on
     * @param topicId the topic's id; {@link Uuid#ZERO_UUID} before v13
     * @param partition the partition's index
     */
    public record Refused(String topic, Uuid topicId, int partition) {}

    private static int length(Layout layout, WireCursor cursor) {
        int count = layout.compact ? cursor.compactLength() : cursor.int32();
        if (count < -1 || count > cursor.remaining()) {
            throw cursor.malformed("array of " + count + " elements in " + cursor.remaining() + " bytes");
        }
        return count;
    }
}
