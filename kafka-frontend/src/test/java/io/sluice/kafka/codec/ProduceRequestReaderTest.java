package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.relay.MalformedFrameException;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@ExtendWith(LeakCheck.class)
class ProduceRequestReaderTest {

    private final RequestHeader header = new RequestHeader();
    private final WireCursor cursor = new WireCursor();

    @Test
    void readsAcksOfEveryVersionWithAndWithoutATransactionalId() {
        char[] longId = new char[300];
        Arrays.fill(longId, 't');
        for (short version = HandledApi.PRODUCE.minVersion(); version <= HandledApi.PRODUCE.maxVersion(); version++) {
            for (String transactionalId : new String[] {null, "", "tx-1", new String(longId)}) {
                for (short acks : new short[] {-1, 0, 1}) {
                    ProduceRequestData body = new ProduceRequestData()
                            .setTransactionalId(transactionalId)
                            .setAcks(acks)
                            .setTimeoutMs(30_000);
                    ByteBuf frame = KafkaFrames.request(body, version, 9, "producer");
                    try {
                        assertEquals(
                                acks,
                                ProduceRequestReader.acks(
                                        KafkaFrames.view(frame), header.read(KafkaFrames.view(frame)), cursor),
                                "v" + version + " transactional id " + transactionalId);
                    } finally {
                        frame.release();
                    }
                }
            }
        }
    }

    @Test
    void rejectsABodyCutBeforeAcks() {
        ByteBuf frame = KafkaFrames.request(
                new ProduceRequestData().setTransactionalId("tx").setAcks((short) 1), (short) 11, 9, "p");
        try {
            ByteBuf cut =
                    frame.retainedSlice(0, header.read(KafkaFrames.view(frame)).bodyIndex() + 3);
            try {
                MalformedFrameException e = assertThrows(
                        MalformedFrameException.class,
                        () -> ProduceRequestReader.acks(
                                KafkaFrames.view(cut), header.read(KafkaFrames.view(cut)), cursor));
                assertEquals("bad_produce", e.reason());
            } finally {
                cut.release();
            }
        } finally {
            frame.release();
        }
    }

    @Test
    void refusesAnotherRequest() {
        ByteBuf frame = KafkaFrames.request(new MetadataRequestData(), (short) 12, 9, "p");
        try {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> ProduceRequestReader.acks(
                            KafkaFrames.view(frame), header.read(KafkaFrames.view(frame)), cursor));
        } finally {
            frame.release();
        }
    }
}
