package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;

/**
 * A request a gate forwarded and whose response it must see: to put its own answers in, to raise
 * the throttle time, to trim records, to charge what the client receives. Exactly one of the two
 * methods is called, once, on the connection's event loop.
 */
public interface Exchange {

    /**
     * The broker's response {@code frame} (size prefix included); takes ownership. Returns the
     * frame the client gets, which the caller owns: {@code frame} itself or a new one.
     */
    ByteBuf complete(ByteBuf frame);

    /** The connection closed before the response came. */
    void abandon();
}
