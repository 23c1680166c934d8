package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.ProduceResponseData.PartitionProduceResponse;
import org.apache.kafka.common.message.ProduceResponseData.TopicProduceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ProduceResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Sluice's partition answers merged into the broker's, in the request's order, as a client reads them. */
@ExtendWith(LeakCheck.class)
class ProduceVerdictsTest {

    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final Uuid AUDIT = Uuid.randomUuid();

    private final UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final WireCursor cursor = new WireCursor();

    /** orders-0 forwarded, orders-3 bounced, audit-1 forwarded, audit-2 rejected. */
    private static ProduceVerdicts verdicts(short version) {
        return new ProduceVerdicts(version)
                .topic("orders", ORDERS)
                .forwarded(0)
                .answered(3, Errors.REQUEST_TIMED_OUT, "Sluice delays this batch")
                .topic("audit", AUDIT)
                .forwarded(1)
                .answered(2, Errors.POLICY_VIOLATION, "throttled: topic audit exceeds 1.0 msg/s");
    }

    private static TopicProduceResponse topic(short version, String name, Uuid id, int... partitions) {
        TopicProduceResponse topic =
                version >= 13 ? new TopicProduceResponse().setTopicId(id) : new TopicProduceResponse().setName(name);
        for (int p : partitions) {
            topic.partitionResponses()
                    .add(new PartitionProduceResponse().setIndex(p).setBaseOffset(500 + p));
        }
        return topic;
    }

    @ParameterizedTest
    @ValueSource(shorts = {3, 7, 8, 9, 13})
    void theResponseNamesEveryPartitionOfTheRequestInItsOrder(short version) {
        ProduceResponseData broker = new ProduceResponseData().setThrottleTimeMs(7);
        broker.responses().add(topic(version, "orders", ORDERS, 0));
        broker.responses().add(topic(version, "audit", AUDIT, 1));
        ByteBuf frame = KafkaFrames.response(broker, version, 31);
        ByteBuf merged = verdicts(version)
                .merge(
                        alloc,
                        KafkaFrames.view(frame),
                        ResponseHeader.bodyIndex(KafkaFrames.view(frame), ApiKeys.PRODUCE.id, version, cursor));
        try {
            ProduceResponseData data = KafkaFrames.body(merged, ApiKeys.PRODUCE, version, new ProduceResponseData());
            assertEquals(7, data.throttleTimeMs());
            List<String> seen = new ArrayList<>();
            for (TopicProduceResponse topic : data.responses()) {
                for (PartitionProduceResponse p : topic.partitionResponses()) {
                    seen.add((version >= 13 ? (topic.topicId().equals(ORDERS) ? "orders" : "audit") : topic.name())
                            + "-" + p.index() + ":" + Errors.forCode(p.errorCode()) + "@" + p.baseOffset());
                }
            }
            assertEquals(
                    List.of(
                            "orders-0:NONE@500",
                            "orders-3:REQUEST_TIMED_OUT@-1",
                            "audit-1:NONE@501",
                            "audit-2:POLICY_VIOLATION@-1"),
                    seen);
            PartitionProduceResponse rejected = new ArrayList<>(data.responses())
                    .get(1)
                    .partitionResponses()
                    .get(1);
            if (version >= 8) {
                assertEquals("throttled: topic audit exceeds 1.0 msg/s", rejected.errorMessage());
            } else {
                assertNull(rejected.errorMessage(), "no version before 8 has a message");
            }
            assertEquals(31, ResponseHeader.correlationId(KafkaFrames.view(merged)));
        } finally {
            merged.release();
            frame.release();
        }
    }

    @Test
    void sluicesOwnAnswerReadsAsTheJavaClientReadsIt() {
        short version = 11;
        ProduceVerdicts verdicts = new ProduceVerdicts(version)
                .topic("orders", null)
                .answered(0, Errors.REQUEST_TIMED_OUT, "Sluice delays this batch")
                .answered(1, Errors.POLICY_VIOLATION, "throttled");
        ByteBuf answer = verdicts.answer(alloc, 12);
        try {
            ProduceResponse response =
                    (ProduceResponse) KafkaFrames.asClientReads(answer, ApiKeys.PRODUCE, version, 12);
            assertEquals(
                    Errors.REQUEST_TIMED_OUT.code(),
                    response.data()
                            .responses()
                            .find("orders", Uuid.ZERO_UUID)
                            .partitionResponses()
                            .get(0)
                            .errorCode());
            assertEquals(
                    2,
                    response.errorCounts().values().stream()
                            .mapToInt(Integer::intValue)
                            .sum());
            assertEquals(
                    new TopicPartition("orders", 1).partition(),
                    response.data()
                            .responses()
                            .find("orders", Uuid.ZERO_UUID)
                            .partitionResponses()
                            .get(1)
                            .index());
        } finally {
            answer.release();
        }
    }
}
