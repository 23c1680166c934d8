package io.sluice.pulsar.lookup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse.LookupType;
import io.sluice.relay.FrameView;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LookupRewriterTest {

    private static final String PLAIN = "pulsar://broker-1:6650";
    private static final String TLS = "pulsar+ssl://broker-1:6651";

    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    @Test
    void aConnectAnswerIsRewrittenToComeBackThroughTheServiceUrl() {
        ByteBuf frame = lookup(LookupType.Connect, false, PLAIN, null);
        ByteBuf out = LookupRewriter.rewrite(alloc, frame, false);
        CommandLookupTopicResponse response =
                FrameReader.parse(FrameView.of(out)).getLookupTopicResponse();
        assertTrue(response.getProxyThroughServiceUrl());
        assertEquals(PLAIN, response.getBrokerServiceUrl());
        assertEquals(7, response.getRequestId());
        assertTrue(response.getAuthoritative());
        assertEquals(0, frame.refCnt(), "the original is released");
        out.release();
    }

    @Test
    void bothUrlsNameTheAddressSluiceDialsWhateverTheClientSpeaks() {
        CommandLookupTopicResponse plainUpstream = rewritten(lookup(LookupType.Connect, false, PLAIN, TLS), false);
        assertEquals(PLAIN, plainUpstream.getBrokerServiceUrl());
        assertEquals(PLAIN, plainUpstream.getBrokerServiceUrlTls(), "a pulsar+ssl:// client names the plain port too");
        CommandLookupTopicResponse tlsUpstream = rewritten(lookup(LookupType.Redirect, true, PLAIN, TLS), true);
        assertTrue(tlsUpstream.getProxyThroughServiceUrl());
        assertEquals(TLS, tlsUpstream.getBrokerServiceUrl(), "a pulsar:// client names the TLS port too");
        assertEquals(TLS, tlsUpstream.getBrokerServiceUrlTls());
    }

    @Test
    void anAnswerWithoutTheUrlSluiceDialsKeepsItsUrls() {
        CommandLookupTopicResponse response = rewritten(lookup(LookupType.Connect, false, PLAIN, null), true);
        assertTrue(response.getProxyThroughServiceUrl());
        assertEquals(PLAIN, response.getBrokerServiceUrl());
        assertEquals("", response.getBrokerServiceUrlTls());
    }

    @Test
    void failuresAndAnswersAlreadyAsSluiceWouldWriteThemPassUnchanged() {
        ByteBuf failed = lookup(LookupType.Failed, false, null, null);
        assertSame(failed, LookupRewriter.rewrite(alloc, failed, false));
        failed.release();
        ByteBuf through = lookup(LookupType.Redirect, true, PLAIN, PLAIN);
        assertSame(through, LookupRewriter.rewrite(alloc, through, false));
        through.release();
        ByteBuf onlyPlain = lookup(LookupType.Connect, true, PLAIN, null);
        assertSame(onlyPlain, LookupRewriter.rewrite(alloc, onlyPlain, true));
        onlyPlain.release();
    }

    private CommandLookupTopicResponse rewritten(ByteBuf frame, boolean upstreamTls) {
        ByteBuf out = LookupRewriter.rewrite(alloc, frame, upstreamTls);
        try {
            return FrameReader.parse(FrameView.of(out)).getLookupTopicResponse();
        } finally {
            out.release();
        }
    }

    private ByteBuf lookup(LookupType type, boolean proxyThrough, String url, String tlsUrl) {
        CommandLookupTopicResponse.Builder response = CommandLookupTopicResponse.newBuilder()
                .setResponse(type)
                .setRequestId(7)
                .setAuthoritative(true)
                .setProxyThroughServiceUrl(proxyThrough);
        if (url != null) {
            response.setBrokerServiceUrl(url);
        }
        if (tlsUrl != null) {
            response.setBrokerServiceUrlTls(tlsUrl);
        }
        return FrameWriter.encode(
                alloc,
                BaseCommand.newBuilder()
                        .setType(BaseCommand.Type.LOOKUP_RESPONSE)
                        .setLookupTopicResponse(response)
                        .build());
    }
}
