package io.sluice.kafka.codec;

import io.sluice.relay.FrameView;
import org.apache.kafka.common.protocol.types.ArrayOf;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Type;

/**
 * The shape shared by Produce requests and Fetch responses, in one version: a body with an array
 * of topics, each named by a string or an id and holding an array of partitions, each with an
 * index and records. Built from kafka-clients' schema of that version once, at class loading, so
 * a new version's fields are found by name rather than by position; then walks any number of
 * frames in place.
 */
final class RecordsLayout {

    private static final RecordsLayout[] PRODUCE_REQUESTS =
            layouts(HandledApi.PRODUCE, true, "topic_data", "name", "partition_data", "index");
    private static final RecordsLayout[] FETCH_RESPONSES =
            layouts(HandledApi.FETCH, false, "responses", "topic", "partitions", "partition_index");

    private final String reason;
    private final SchemaSkipper.Struct body;
    private final SchemaSkipper.Struct topic;
    private final SchemaSkipper.Struct partition;
    private final int topicsField;
    private final int nameField;
    private final int idField;
    private final int partitionsField;
    private final int indexField;
    private final int recordsField;
    private final boolean compact;
    private final boolean compactRecords;

    private RecordsLayout(
            Schema schema, String reason, String topicsName, String nameName, String partitionsName, String indexName) {
        this.reason = reason;
        this.body = (SchemaSkipper.Struct) SchemaSkipper.of(schema);
        this.topicsField = field(schema, topicsName);
        Type topicsType = schema.get(topicsField).def.type;
        this.compact = topicsType instanceof CompactArrayOf;
        Schema topicSchema = element(topicsType);
        this.topic = (SchemaSkipper.Struct) SchemaSkipper.of(topicSchema);
        this.nameField = optionalField(topicSchema, nameName);
        this.idField = optionalField(topicSchema, "topic_id");
        if ((nameField < 0) == (idField < 0)) {
            throw new IllegalStateException("expected a topic name or a topic id in " + topicSchema);
        }
        this.partitionsField = field(topicSchema, partitionsName);
        Schema partitionSchema = element(topicSchema.get(partitionsField).def.type);
        this.partition = (SchemaSkipper.Struct) SchemaSkipper.of(partitionSchema);
        this.indexField = field(partitionSchema, indexName);
        this.recordsField = field(partitionSchema, "records");
        Type records = partitionSchema.get(recordsField).def.type;
        this.compactRecords = records == Type.COMPACT_RECORDS || records == Type.COMPACT_NULLABLE_RECORDS;
        if (!compactRecords && records != Type.RECORDS && records != Type.NULLABLE_RECORDS) {
            throw new IllegalStateException("expected records in " + partitionSchema);
        }
        if (partitionSchema.get(indexField).def.type != Type.INT32
                || nameField >= 0 && !isString(topicSchema.get(nameField).def.type)) {
            throw new IllegalStateException("unexpected field types in " + topicSchema);
        }
    }

    static RecordsLayout produceRequest(short version) {
        return PRODUCE_REQUESTS[checked(HandledApi.PRODUCE, version)];
    }

    static RecordsLayout fetchResponse(short version) {
        return FETCH_RESPONSES[checked(HandledApi.FETCH, version)];
    }

    boolean topicsById() {
        return idField >= 0;
    }

    boolean compact() {
        return compact;
    }

    boolean compactRecords() {
        return compactRecords;
    }

    /** Walks the body of {@code frame} from {@code bodyIndex} into {@code into}. */
    void walk(FrameView frame, int bodyIndex, WireCursor cursor, PartitionRecords into) {
        cursor.reset(frame, bodyIndex, reason);
        body.skipFields(cursor, 0, topicsField);
        into.topicsCountIndex = cursor.index();
        int topics = count(cursor);
        for (int i = 0; i < topics; i++) {
            int t = into.addTopic(cursor.index());
            for (int f = 0; f < partitionsField; f++) {
                if (f == nameField) {
                    int length = compact ? cursor.compactLength() : cursor.int16();
                    if (length < 0) {
                        throw cursor.malformed("topic without a name");
                    }
                    into.topicName(t, cursor.index(), length);
                    cursor.skip(length);
                } else if (f == idField) {
                    into.topicId(t, cursor.int64(), cursor.int64());
                } else {
                    topic.field(f).skip(cursor);
                }
            }
            into.partitionsCountIndex(t, cursor.index());
            int partitions = count(cursor);
            for (int j = 0; j < partitions; j++) {
                walkPartition(cursor, into, into.addPartition(t, cursor.index()));
            }
            int partitionsEnd = cursor.index();
            topic.skipFields(cursor, partitionsField + 1, topic.fieldCount());
            into.topicEnds(t, partitionsEnd, cursor.index());
        }
        into.topicsEnd = cursor.index();
        body.skipFields(cursor, topicsField + 1, body.fieldCount());
    }

    private void walkPartition(WireCursor cursor, PartitionRecords into, int p) {
        for (int f = 0; f < partition.fieldCount(); f++) {
            if (f == indexField) {
                into.partitionIndex(p, cursor.int32());
            } else if (f == recordsField) {
                int lengthIndex = cursor.index();
                int length = compactRecords ? cursor.compactLength() : cursor.int32();
                if (length < -1) {
                    throw cursor.malformed("records length " + length + " is negative");
                }
                into.records(p, lengthIndex, cursor.index(), length);
                cursor.skipSized(length);
            } else {
                partition.field(f).skip(cursor);
            }
        }
        into.partitionEnd(p, cursor.index());
    }

    /** An array's element count; null or more elements than bytes left cannot be right here. */
    private int count(WireCursor cursor) {
        int count = compact ? cursor.compactLength() : cursor.int32();
        if (count < 0 || count > cursor.remaining()) {
            throw cursor.malformed("array of " + count + " elements in " + cursor.remaining() + " bytes");
        }
        return count;
    }

    private static RecordsLayout[] layouts(
            HandledApi api, boolean request, String topics, String name, String partitions, String index) {
        Schema[] schemas = request
                ? api.key().messageType.requestSchemas()
                : api.key().messageType.responseSchemas();
        RecordsLayout[] layouts = new RecordsLayout[api.maxVersion() + 1];
        for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
            layouts[version] = new RecordsLayout(
                    schemas[version], request ? "bad_produce" : "bad_response_body", topics, name, partitions, index);
        }
        return layouts;
    }

    private static int checked(HandledApi api, short version) {
        if (!api.supports(version)) {
            throw new IllegalArgumentException(api + " v" + version + " is not a version Sluice handles");
        }
        return version;
    }

    private static Schema element(Type arrayType) {
        if (!(arrayType instanceof ArrayOf) && !(arrayType instanceof CompactArrayOf)) {
            throw new IllegalStateException("expected an array, got " + arrayType);
        }
        return (Schema) arrayType.arrayElementType().orElseThrow();
    }

    private static boolean isString(Type type) {
        return type == Type.STRING || type == Type.COMPACT_STRING;
    }

    private static int field(Schema schema, String name) {
        int index = optionalField(schema, name);
        if (index < 0) {
            throw new IllegalStateException("no field " + name + " in " + schema);
        }
        return index;
    }

    private static int optionalField(Schema schema, String name) {
        BoundField[] fields = schema.fields();
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].def.name.equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
