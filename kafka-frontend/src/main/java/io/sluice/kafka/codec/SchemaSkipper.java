package io.sluice.kafka.codec;

import org.apache.kafka.common.protocol.types.ArrayOf;
import org.apache.kafka.common.protocol.types.CompactArrayOf;
import org.apache.kafka.common.protocol.types.Field;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;

import java.util.Map;

/**
 * Skips over one value of a message in place, following one version of the message's schema as
 * kafka-clients defines it. Built once per schema (at class loading), then used on any number of
 * frames without allocating: a tree of steps, one per type.
 */
abstract class SchemaSkipper {

    abstract void skip(WireCursor cursor);

    /** The skipper for values of {@code type}; fails on a type this code does not know. */
    static SchemaSkipper of(Type type) {
        if (type instanceof Schema struct) {
            SchemaSkipper[] fields = new SchemaSkipper[struct.numFields()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = of(struct.get(i).def.type);
            }
            return new Struct(fields);
        }
        if (type instanceof TaggedFields tagged) {
            return new Tagged(tagged);
        }
        if (type instanceof ArrayOf || type instanceof CompactArrayOf) {
            Type element = type.arrayElementType().orElseThrow();
            return new Array(of(element), type instanceof CompactArrayOf);
        }
        if (type == Type.BOOLEAN || type == Type.INT8) {
            return new Fixed(1);
        }
        if (type == Type.INT16 || type == Type.UINT16) {
            return new Fixed(2);
        }
        if (type == Type.INT32 || type == Type.UNSIGNED_INT32) {
            return new Fixed(4);
        }
        if (type == Type.INT64 || type == Type.FLOAT64) {
            return new Fixed(8);
        }
        if (type == Type.UUID) {
            return new Fixed(16);
        }
        if (type == Type.VARINT) {
            return new Varint(5);
        }
        if (type == Type.VARLONG) {
            return new Varint(10);
        }
        if (type == Type.STRING || type == Type.NULLABLE_STRING) {
            return INT16_SIZED;
        }
        if (type == Type.BYTES
                || type == Type.NULLABLE_BYTES
                || type == Type.RECORDS
                || type == Type.NULLABLE_RECORDS) {
            return INT32_SIZED;
        }
        if (type == Type.COMPACT_STRING
                || type == Type.COMPACT_NULLABLE_STRING
                || type == Type.COMPACT_BYTES
                || type == Type.COMPACT_NULLABLE_BYTES
                || type == Type.COMPACT_RECORDS
                || type == Type.COMPACT_NULLABLE_RECORDS) {
            return COMPACT_SIZED;
        }
        throw new IllegalStateException("no skipper for schema type " + type);
    }

    private static final SchemaSkipper INT16_SIZED = new SchemaSkipper() {
        @Override
        void skip(WireCursor cursor) {
            cursor.skipSized(cursor.int16());
        }
    };

    private static final SchemaSkipper INT32_SIZED = new SchemaSkipper() {
        @Override
        void skip(WireCursor cursor) {
            cursor.skipSized(cursor.int32());
        }
    };

    private static final SchemaSkipper COMPACT_SIZED = new SchemaSkipper() {
        @Override
        void skip(WireCursor cursor) {
            cursor.skipSized(cursor.compactLength());
        }
    };

    private static final class Fixed extends SchemaSkipper {
        private final int size;

        Fixed(int size) {
            this.size = size;
        }

        @Override
        void skip(WireCursor cursor) {
            cursor.skip(size);
        }
    }

    private static final class Varint extends SchemaSkipper {
        private final int maxBytes;

        Varint(int maxBytes) {
            this.maxBytes = maxBytes;
        }

        @Override
        void skip(WireCursor cursor) {
            cursor.skipVarint(maxBytes);
        }
    }

    /** A struct: its fields in order. */
    static final class Struct extends SchemaSkipper {
        private final SchemaSkipper[] fields;

        Struct(SchemaSkipper[] fields) {
            this.fields = fields;
        }

        @Override
        void skip(WireCursor cursor) {
            skipFields(cursor, 0, fields.length);
        }

        /** Skips fields {@code from} (inclusive) to {@code to} (exclusive). */
        void skipFields(WireCursor cursor, int from, int to) {
            for (int i = from; i < to; i++) {
                fields[i].skip(cursor);
            }
        }

        int fieldCount() {
            return fields.length;
        }

        SchemaSkipper field(int index) {
            return fields[index];
        }
    }

    /**
     * A tagged-field section. kafka-clients reads a tag it knows by that tag's type, whatever size
     * the field claims, and skips only unknown tags by their size: so must this, or a body could
     * mean one thing to Sluice and another to the client.
     */
    static final class Tagged extends SchemaSkipper {
        private final int[] tags;
        private final SchemaSkipper[] known;

        Tagged(TaggedFields tagged) {
            Map<Integer, Field> fields = tagged.fields();
            tags = new int[fields.size()];
            known = new SchemaSkipper[fields.size()];
            int i = 0;
            for (Map.Entry<Integer, Field> field : fields.entrySet()) {
                tags[i] = field.getKey();
                known[i] = of(field.getValue().type);
                i++;
            }
        }

        @Override
        void skip(WireCursor cursor) {
            int count = count(cursor);
            for (int i = 0; i < count; i++) {
                int tag = cursor.unsignedVarint();
                skipField(cursor, tag, cursor.unsignedVarint());
            }
        }

        /** How many fields follow; reads the count. */
        static int count(WireCursor cursor) {
            int count = cursor.unsignedVarint();
            if (count < 0) {
                throw cursor.malformed("tagged field count " + Integer.toUnsignedString(count) + " out of range");
            }
            return count;
        }

        /** Skips the value of one field whose tag and size were just read. */
        void skipField(WireCursor cursor, int tag, int size) {
            for (int i = 0; i < tags.length; i++) {
                if (tags[i] == tag) {
                    known[i].skip(cursor);
                    return;
                }
            }
            cursor.skip(size);
        }
    }

    private static final class Array extends SchemaSkipper {
        private final SchemaSkipper element;
        private final boolean compact;

        Array(SchemaSkipper element, boolean compact) {
            this.element = element;
            this.compact = compact;
        }

        @Override
        void skip(WireCursor cursor) {
            int count = compact ? cursor.compactLength() : cursor.int32();
            if (count < -1) {
                throw cursor.malformed("array length " + count + " is negative");
            }
            // As kafka-clients' readers do: more elements than bytes left cannot be right, and the
            // check bounds the loop even for elements of no bytes.
            if (count > cursor.remaining()) {
                throw cursor.malformed("array of " + count + " elements in " + cursor.remaining() + " bytes");
            }
            for (int i = 0; i < count; i++) {
                element.skip(cursor);
            }
        }
    }
}
