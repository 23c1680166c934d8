package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.relay.FrameView;

/**
 * What the Kafka gates need of their connection beyond the relay's {@link io.sluice.relay.Outbound}
 * (where frames go, unawaited): requests forwarded whose responses they will see, answers of their
 * own, and a way to stop the client's requests. Kafka answers a connection's requests in order, so
 * the connection keeps that order for requests forwarded here and answers given here alike. Every
 * method runs on the connection's event loop.
 */
public interface KafkaOutbound {

    /**
     * Forwards the lent request {@code frame}, unchanged, whose header {@code header} just read; the
     * broker's response goes through {@code exchange} before the client sees it. The frame stays its
     * lender's.
     */
    void forward(FrameView frame, RequestHeader header, Exchange exchange);

    /**
     * Forwards the request {@code frame} (a cut of the client's, or one held), whose header
     * {@code header} read; as {@link #forward(FrameView, RequestHeader, Exchange)}, but takes
     * ownership of {@code frame}.
     */
    void forward(ByteBuf frame, RequestHeader header, Exchange exchange);

    /**
     * Answers the request whose header {@code header} just read with Sluice's own {@code answer},
     * in its turn. Takes ownership of {@code answer}.
     */
    void answer(RequestHeader header, ByteBuf answer);

    /** Stops taking requests from the client: no more are decoded until {@link #resumeRequests}. */
    void pauseRequests();

    /** Takes requests from the client again. */
    void resumeRequests();
}
