package io.sluice.kafka.codec;

import io.netty.buffer.ByteBuf;
import io.sluice.relay.FrameView;

/**
 * One broker response on its way to the client: the frame as its decoder lent it, or the frame
 * Sluice put in its place (its answers merged in, records trimmed, broker addresses rewritten), with
 * the API and version of the request it answers. Every frame that takes the broker's place keeps its
 * header as it came, so where the body starts is worked out once, the first time it is asked for,
 * and holds for each of them.
 *
 * <p>Never owns the lent frame: its bytes may be read and changed in place during the call that
 * lent them. Owns a frame put in its place from {@link #replace} until {@link #takeReplacement}
 * hands it on or {@link #release} drops it. One instance is reused for every response of a
 * connection, on its event loop.
 */
public final class ResponseFrame {

    private final FrameView frame = new FrameView();
    private final WireCursor cursor = new WireCursor();
    private final ProduceResponseScan produceScan = new ProduceResponseScan();
    /** Whether {@link #produceScan} walked the frame as it is now. */
    private boolean produceScanned;

    private ByteBuf replacement;
    private short apiKey;
    private short apiVersion;
    /** The body's offset from the frame's start; -1 until asked for. */
    private int bodyOffset;

    /**
     * Points at the lent response {@code lent} to a request for {@code apiKey} v{@code apiVersion};
     * nothing of a previous response may be left ({@link #release}).
     */
    public ResponseFrame lend(FrameView lent, short apiKey, short apiVersion) {
        if (replacement != null) {
            throw new IllegalStateException("the previous response's frame was neither handed on nor released");
        }
        frame.lend(lent.buffer(), lent.index(), lent.length());
        this.apiKey = apiKey;
        this.apiVersion = apiVersion;
        this.bodyOffset = -1;
        this.produceScanned = false;
        return this;
    }

    /** The response as it is now: the lent frame or what took its place; valid until the next change. */
    public FrameView frame() {
        return frame;
    }

    public short apiKey() {
        return apiKey;
    }

    public short apiVersion() {
        return apiVersion;
    }

    /**
     * Where the body starts, as an index into {@link #frame()}'s buffer. A header that cannot be read
     * raises a {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_header}).
     */
    public int bodyIndex() {
        if (bodyOffset < 0) {
            bodyOffset = ResponseHeader.bodyIndex(frame, apiKey, apiVersion, cursor) - frame.index();
        }
        return frame.index() + bodyOffset;
    }

    /**
     * What one walk of this Produce response's body found (refused partitions, node endpoints),
     * walked the first time it is asked for and again only once another frame took its place, so
     * that the gate and the rewriter share the walk. A body that cannot be read raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}) each time it is asked.
     */
    public ProduceResponseScan produceScan() {
        if (apiKey != HandledApi.PRODUCE.key().id) {
            throw new IllegalStateException("not a Produce response: API " + apiKey);
        }
        if (!produceScanned) {
            produceScan.read(frame, bodyIndex(), apiVersion, cursor);
            produceScanned = true;
        }
        return produceScan;
    }

    /**
     * Whether this response, to {@code api} (one whose responses can have the field, see
     * {@link NodeEndpointsProbe}), holds at least one node endpoint; a Produce response's answer
     * comes from {@link #produceScan}. A body that cannot be read raises a
     * {@link io.sluice.relay.MalformedFrameException} ({@code bad_response_body}).
     */
    public boolean carriesNodeEndpoints(HandledApi api) {
        if (!NodeEndpointsProbe.hasField(api, apiVersion)) {
            return false;
        }
        if (api == HandledApi.PRODUCE) {
            return produceScan().carriesNodeEndpoints();
        }
        return NodeEndpointsProbe.carriesNodeEndpoints(api, apiVersion, frame, bodyIndex(), cursor);
    }

    /**
     * Puts {@code newFrame}, which has the response's header as it came, in place of the response;
     * takes ownership of it and releases a frame put in place before.
     */
    public void replace(ByteBuf newFrame) {
        bodyIndex();
        ByteBuf before = replacement;
        replacement = newFrame;
        frame.lend(newFrame, newFrame.readerIndex(), newFrame.readableBytes());
        produceScanned = false;
        if (before != null) {
            before.release();
        }
    }

    /** Whether a frame of Sluice's took the lent one's place. */
    public boolean isReplaced() {
        return replacement != null;
    }

    /** The frame that took the lent one's place, which the caller now owns; null when none did. */
    public ByteBuf takeReplacement() {
        ByteBuf taken = replacement;
        replacement = null;
        return taken;
    }

    /** Drops the frame that took the lent one's place, if any: for a response that failed half way. */
    public void release() {
        if (replacement != null) {
            replacement.release();
            replacement = null;
        }
    }
}
