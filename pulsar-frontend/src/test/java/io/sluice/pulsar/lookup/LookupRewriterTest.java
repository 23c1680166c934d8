package io.sluice.pulsar.lookup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse.LookupType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LookupRewriterTest {

    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    @Test
    void aConnectAnswerIsRewrittenToComeBackThroughTheServiceUrl() {
        ByteBuf frame = lookup(LookupType.Connect, false);
        ByteBuf out = LookupRewriter.rewrite(alloc, frame);
        CommandLookupTopicResponse response = FrameReader.parse(out).getLookupTopicResponse();
        assertTrue(response.getProxyThroughServiceUrl());
        assertEquals("pulsar://broker-1:6650", response.getBrokerServiceUrl());
        assertEquals(7, response.getRequestId());
        assertTrue(response.getAuthoritative());
        assertEquals(0, frame.refCnt(), "the original is released");
        out.release();
    }

    @Test
    void failuresAndAnswersAlreadyThroughTheProxyPassUnchanged() {
        ByteBuf failed = lookup(LookupType.Failed, false);
        assertSame(failed, LookupRewriter.rewrite(alloc, failed));
        failed.release();
        ByteBuf through = lookup(LookupType.Redirect, true);
        assertSame(through, LookupRewriter.rewrite(alloc, through));
        through.release();
    }

    private ByteBuf lookup(LookupType type, boolean proxyThrough) {
        return FrameWriter.encode(alloc, BaseCommand.newBuilder()
                .setType(BaseCommand.Type.LOOKUP_RESPONSE)
                .setLookupTopicResponse(CommandLookupTopicResponse.newBuilder()
                        .setBrokerServiceUrl("pulsar://broker-1:6650")
                        .setResponse(type)
                        .setRequestId(7)
                        .setAuthoritative(true)
                        .setProxyThroughServiceUrl(proxyThrough))
                .build());
    }
}
