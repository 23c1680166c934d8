package io.sluice.kafka.gates;

import io.sluice.kafka.codec.ResponseFrame;

/**
 * A request a gate forwarded and whose response it must see: to put its own answers in, to raise
 * the throttle time, to trim records, to charge what the client receives. Exactly one of the two
 * methods is called, once, on the connection's event loop.
 */
public interface Exchange {

    /**
     * The broker's response, matched to the request and not yet rewritten for the client: the gate
     * reads it, changes its bytes in place or puts a new frame in its place
     * ({@link ResponseFrame#replace}). A response it cannot read raises a
     * {@link io.sluice.relay.MalformedFrameException}.
     */
    void complete(ResponseFrame response);

    /** The connection closed before the response came. */
    void abandon();
}
