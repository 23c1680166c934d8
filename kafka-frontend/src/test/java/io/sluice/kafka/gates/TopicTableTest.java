package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.PartitionRecords;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A lookup in the connection's topics answers with the topic or with why there is none, in one call. */
@ExtendWith(LeakCheck.class)
class TopicTableTest {

    private static final long NOW = 1_000;

    private final TopicIds ids = new TopicIds(100);
    private final TopicTable table = new TopicTable(ids, 2, NOW);

    @Test
    void aLookupSaysWhyItFoundNoTopic() {
        Uuid orders = Uuid.randomUuid();
        Uuid unknown = Uuid.randomUuid();
        ids.learn(orders, "orders");
        Uuid payments = Uuid.randomUuid();
        ids.learn(payments, "payments");

        TopicTable.Lookup found = lookUpById(orders);
        assertEquals("orders", assertInstanceOf(TopicTable.Entry.class, found).name);
        assertSame(found, lookUpById(orders), "the same topic, not a second entry");
        assertSame(TopicTable.Miss.UNKNOWN_ID, lookUpById(unknown));
        assertSame(TopicTable.Miss.INVALID_NAME, lookUpByName("no spaces allowed"));
        assertInstanceOf(TopicTable.Entry.class, lookUpByName("invoices"));
        assertSame(TopicTable.Miss.FULL, lookUpByName("refunds"), "two topics tracked at most");
        assertSame(TopicTable.Miss.FULL, lookUpById(payments), "a known id past the limit is not tracked either");
        assertEquals(2, table.size());
    }

    private TopicTable.Lookup lookUpById(Uuid id) {
        return table.findById(id.getMostSignificantBits(), id.getLeastSignificantBits(), NOW);
    }

    private TopicTable.Lookup lookUpByName(String topic) {
        short version = 11;
        ByteBuf frame = RecordFrames.produceRequest(
                version, (short) 1, 1, "app", new Part(topic, null, 0, RecordFrames.batch(1, 10)));
        try {
            RequestHeader header = new RequestHeader();
            header.read(KafkaFrames.view(frame));
            PartitionRecords parts = new PartitionRecords()
                    .readProduceRequest(KafkaFrames.view(frame), header.bodyIndex(), version, new WireCursor());
            return table.find(parts, 0, NOW);
        } finally {
            frame.release();
        }
    }
}
