package io.sluice.kafka.gates;

import io.netty.buffer.ByteBufAllocator;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.relay.FrameView;

/**
 * The one way out of the Kafka gates: the connection, which carries out each gate's
 * {@link GateVerdict}, the verdicts of a request as it arrives and those a gate reaches later (a
 * held batch released, a held Fetch let go, a request that waited for its topic ids decided).
 * Every method runs on the connection's event loop.
 */
public interface KafkaOutbound {

    /**
     * Carries out {@code verdict} on the request whose header {@code header} read from the lent
     * {@code lent}, which stays its lender's; both may be null for a verdict that owns its frame and
     * awaits no response. Takes ownership of what the verdict carries.
     */
    void act(GateVerdict verdict, FrameView lent, RequestHeader header);

    /** Writes what acts since the last flush sent: for a gate that acted on its own, from a timer. */
    void flush();

    /** For the frames gates make: cuts, merged responses, Sluice's answers. */
    ByteBufAllocator alloc();

    /** Stops taking requests from the client: no more are decoded until {@link #resumeRequests}. */
    void pauseRequests();

    /** Takes requests from the client again. */
    void resumeRequests();
}
