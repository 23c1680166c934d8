package io.sluice.pulsar.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer;
import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;
import io.sluice.pulsar.codec.proto.CommandThrottleProducerReceipt;
import io.sluice.relay.FrameView;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(LeakCheck.class)
class FrameWriterTest {

    @Test
    void throttleProducerIsTypeTwoHundredWithEveryFieldAtItsNumber() {
        ByteBuf frame = FrameWriter.throttleProducer(
                ByteBufAllocator.DEFAULT, 7, 300, ThrottlingReason.ResourceGroupProduceQuotaExceeded, 1234);
        try {
            assertEquals(frame.readableBytes() - 4, frame.getInt(0), "total size");
            assertEquals(200, FrameReader.type(FrameView.of(frame)));
            assertEquals(0, FrameReader.payloadSize(FrameView.of(frame)));
            CommandThrottleProducer notice =
                    FrameReader.parse(FrameView.of(frame)).getThrottleProducer();
            assertEquals(7, notice.getRequestId());
            assertEquals(300, notice.getProducerId());
            assertEquals(ThrottlingReason.ResourceGroupProduceQuotaExceeded, notice.getThrottlingReason());
            assertEquals(1234, notice.getPauseForMillis());
            assertEquals(7, FrameReader.readFirstId(FrameView.of(frame), 200), "request_id is field 1");
        } finally {
            frame.release();
        }
    }

    @Test
    void theReceiptsRequestIdIsReadInPlace() {
        ByteBuf receipt = FrameWriter.encode(
                ByteBufAllocator.DEFAULT,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.THROTTLE_PRODUCER_RECEIPT)
                        .setThrottleProducerReceipt(
                                CommandThrottleProducerReceipt.newBuilder().setRequestId(1L << 33))
                        .build());
        try {
            assertEquals(201, FrameReader.type(FrameView.of(receipt)));
            assertEquals(1L << 33, FrameReader.readFirstId(FrameView.of(receipt), 201));
        } finally {
            receipt.release();
        }
    }
}
