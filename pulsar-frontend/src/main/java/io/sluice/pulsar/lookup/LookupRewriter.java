package io.sluice.pulsar.lookup;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.sluice.pulsar.codec.FrameReader;
import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse.LookupType;
import io.sluice.relay.FrameView;

/**
 * For the front-proxy deployment: makes every successful lookup answer tell the client to connect
 * through its service URL (Sluice) instead of straight to the broker it names. The client then
 * opens a connection to Sluice carrying {@code proxy_to_broker_url}, which Sluice checks against
 * its {@link BrokerAllowList}.
 *
 * <p>Both broker URLs of the answer become the one Sluice itself will dial: the broker's TLS URL
 * when Sluice speaks TLS upstream, its plain URL otherwise. A client picks one of the two by its
 * own connection to Sluice (a {@code pulsar+ssl://} client takes the TLS URL), which says nothing
 * about Sluice's connection to the broker; with both the same, the address it names in
 * {@code proxy_to_broker_url} is the right port either way. Apache Pulsar's proxy answers the same.
 * An answer without the URL Sluice needs keeps its URLs; the connection to it then fails with
 * Sluice's own error.
 */
public final class LookupRewriter {

    private LookupRewriter() {}

    /**
     * Returns the frame to forward: {@code frame} itself when nothing needs changing, otherwise a
     * new frame, in which case {@code frame} is released. Unknown fields survive the rewrite.
     *
     * @param upstreamTls whether Sluice connects to brokers over TLS
     */
    public static ByteBuf rewrite(ByteBufAllocator alloc, ByteBuf frame, boolean upstreamTls) {
        BaseCommand command = FrameReader.parse(FrameView.of(frame));
        CommandLookupTopicResponse response = command.getLookupTopicResponse();
        if (response.getResponse() == LookupType.Failed) {
            return frame;
        }
        String dialled = upstreamTls ? response.getBrokerServiceUrlTls() : response.getBrokerServiceUrl();
        boolean sameUrls = dialled.isEmpty()
                || dialled.equals(response.getBrokerServiceUrl()) && dialled.equals(response.getBrokerServiceUrlTls());
        if (response.getProxyThroughServiceUrl() && sameUrls) {
            return frame;
        }
        CommandLookupTopicResponse.Builder answer = response.toBuilder().setProxyThroughServiceUrl(true);
        if (!dialled.isEmpty()) {
            answer.setBrokerServiceUrl(dialled).setBrokerServiceUrlTls(dialled);
        }
        BaseCommand rewritten =
                command.toBuilder().setLookupTopicResponse(answer).build();
        ByteBuf out = FrameWriter.encode(alloc, rewritten);
        frame.release();
        return out;
    }
}
