package io.sluice.kafka.routing;

import io.sluice.kafka.codec.HandledApi;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.Field;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The table of where responses name brokers covers exactly the handled APIs whose responses, in
 * some version Sluice handles, hold a broker's host and port (as kafka-clients' schemas say, tagged
 * fields included): an API left out would let clients go around Sluice.
 */
class AddressedResponseTest {

    @Test
    void everyHandledResponseThatNamesABrokerIsInTheTableAndNoOther() {
        Set<HandledApi> naming = EnumSet.noneOf(HandledApi.class);
        Set<HandledApi> inTable = EnumSet.noneOf(HandledApi.class);
        for (HandledApi api : HandledApi.values()) {
            Schema[] schemas = api.key().messageType.responseSchemas();
            for (short version = api.minVersion(); version <= api.maxVersion(); version++) {
                if (namesABroker(schemas[version])) {
                    naming.add(api);
                }
            }
            if (AddressedResponse.of(api) != null) {
                inTable.add(api);
            }
        }
        assertEquals(
                EnumSet.of(
                        HandledApi.METADATA,
                        HandledApi.FIND_COORDINATOR,
                        HandledApi.DESCRIBE_CLUSTER,
                        HandledApi.PRODUCE,
                        HandledApi.FETCH,
                        HandledApi.SHARE_FETCH,
                        HandledApi.SHARE_ACKNOWLEDGE),
                naming,
                "the pinned kafka-clients' schemas");
        naming.add(HandledApi.CREATE_TOPICS);
        naming.add(HandledApi.DESCRIBE_TOPIC_PARTITIONS);
        assertEquals(naming, inTable, "and those read only for the topic ids they carry");
    }

    @Test
    void onlyResponsesWhoseBrokersAreNodeEndpointsAreProbedFirst() {
        for (HandledApi api : HandledApi.values()) {
            AddressedResponse<?> addressed = AddressedResponse.of(api);
            if (addressed != null) {
                Schema latest = api.key().messageType.responseSchemas()[api.maxVersion()];
                assertEquals(hasField(latest, "node_endpoints"), addressed.onlyWithNodeEndpoints(), api.toString());
            }
        }
    }

    /** Whether a struct anywhere in {@code type} has both a {@code host} and a {@code port} field. */
    private static boolean namesABroker(Type type) {
        if (type instanceof Schema struct) {
            boolean host = false;
            boolean port = false;
            for (BoundField field : struct.fields()) {
                host |= field.def.name.equals("host");
                port |= field.def.name.equals("port");
                if (namesABroker(field.def.type)) {
                    return true;
                }
            }
            return host && port;
        }
        if (type instanceof TaggedFields tagged) {
            for (Field field : tagged.fields().values()) {
                if (namesABroker(field.type)) {
                    return true;
                }
            }
            return false;
        }
        return type.arrayElementType().map(AddressedResponseTest::namesABroker).orElse(false);
    }

    private static boolean hasField(Schema schema, String name) {
        for (BoundField field : schema.fields()) {
            if (field.def.name.equals(name)) {
                return true;
            }
            if (field.def.type instanceof TaggedFields tagged) {
                for (Field taggedField : tagged.fields().values()) {
                    if (taggedField.name.equals(name)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
