package io.sluice.kafka.connection;

import io.netty.buffer.ByteBuf;
import io.sluice.admission.LatencyWindow;
import io.sluice.kafka.codec.InFlightRequests;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.ResponseHeader;
import io.sluice.kafka.gates.Exchange;
import io.sluice.kafka.routing.ResponseRewriter;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import io.sluice.relay.Outbound;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * The answers of one Kafka connection in the order of its requests, and the one way a broker's
 * response goes to the client. A broker answers a connection's requests in order and a client
 * matches each response to its oldest request in flight, so every request that gets an answer is
 * remembered here ({@link InFlightRequests}): a forwarded one with the {@link Exchange} of the gate
 * that forwarded it, if any; one Sluice answers itself with that answer, which goes out as soon as
 * every request before it has its response. Produce with {@code acks=0} gets no answer and is not
 * remembered.
 *
 * <p>A broker's response is treated in this order, each step once:
 * <ol>
 *   <li>matched to the oldest request in flight, whose correlation id it must carry;</li>
 *   <li>completed by that request's exchange: Sluice's answers merged in, records charged and
 *       trimmed, the throttle time raised;</li>
 *   <li>rewritten for the client ({@link ResponseRewriter}): ApiVersions narrowed, topic ids
 *       learnt, broker addresses made Sluice's;</li>
 *   <li>sent to the client: the very bytes that came in when nothing took their place;</li>
 *   <li>followed by every answer of Sluice's own that waited for it.</li>
 * </ol>
 * Its header is read once ({@link ResponseFrame}), and a frame that failed half way is released here.
 *
 * <p>Confined to the connection's event loop.
 */
final class ResponseOrder {

    private static final short PRODUCE = ApiKeys.PRODUCE.id;

    private final Outbound client;
    private final ResponseRewriter rewriter;
    private final LatencyWindow upstreamLatency;
    /**
     * Requests awaiting an answer; the context is Sluice's own answer (a {@link ByteBuf}), the
     * {@link Exchange} a gate's forwarded request answers through, or null for the broker's answer as is.
     */
    private final InFlightRequests<Object> inFlight;

    private final ResponseFrame response = new ResponseFrame();

    /**
     * @param client          where answers go: the client side of the connection
     * @param upstreamLatency where Produce response times go, for admission control
     * @param capacity        the most requests remembered at once
     */
    ResponseOrder(Outbound client, ResponseRewriter rewriter, LatencyWindow upstreamLatency, int capacity) {
        this.client = client;
        this.rewriter = rewriter;
        this.upstreamLatency = upstreamLatency;
        this.inFlight = new InFlightRequests<>(capacity);
    }

    /**
     * The request {@code header} read goes to the broker, whose response goes through
     * {@code exchange} (null for none). Past the capacity raises a {@link MalformedFrameException}
     * ({@code too_many_in_flight}), the exchange abandoned.
     */
    void forwarded(RequestHeader header, Exchange exchange) {
        try {
            remember(header, exchange);
        } catch (MalformedFrameException e) {
            if (exchange != null) {
                exchange.abandon();
            }
            throw e;
        }
    }

    /**
     * Answers the request {@code header} read with Sluice's own {@code answer}, in its turn: at once
     * when no earlier request awaits its response, else right after the last of them. Takes
     * ownership of {@code answer}.
     */
    void answer(RequestHeader header, ByteBuf answer) {
        if (inFlight.isEmpty()) {
            client.toClient(answer);
            return;
        }
        try {
            remember(header, answer);
        } catch (MalformedFrameException e) {
            answer.release();
            throw e;
        }
    }

    /**
     * A lent response from the broker, which stays its lender's, treated in the order above. A
     * response that answers no request in flight, or that cannot be read, raises a
     * {@link MalformedFrameException}.
     */
    void response(FrameView frame) {
        inFlight.expect(ResponseHeader.correlationId(frame));
        short apiKey = inFlight.oldestApiKey();
        if (apiKey == PRODUCE) {
            long now = System.nanoTime();
            upstreamLatency.record(now - inFlight.oldestSentAtNanos(), now);
        }
        response.lend(frame, apiKey, inFlight.oldestApiVersion());
        Object context = inFlight.oldestContext();
        // Off the list first: an exchange that fails is not abandoned as well when the connection closes.
        inFlight.removeOldest();
        try {
            if (context instanceof Exchange exchange) {
                exchange.complete(response);
            }
            rewriter.rewrite(client.alloc(), response);
        } catch (RuntimeException e) {
            response.release();
            throw e;
        }
        if (response.isReplaced()) {
            client.toClient(response.takeReplacement());
        } else {
            client.toClient(frame);
        }
        while (!inFlight.isEmpty() && inFlight.oldestContext() instanceof ByteBuf ownAnswer) {
            inFlight.removeOldest();
            client.toClient(ownAnswer);
        }
    }

    /** How many requests await an answer. */
    int size() {
        return inFlight.size();
    }

    boolean isEmpty() {
        return inFlight.isEmpty();
    }

    /** The connection closes: Sluice's answers still waiting are released, the exchanges abandoned. */
    void close() {
        while (!inFlight.isEmpty()) {
            Object context = inFlight.oldestContext();
            inFlight.removeOldest();
            if (context instanceof ByteBuf ownAnswer) {
                ownAnswer.release();
            } else if (context instanceof Exchange exchange) {
                exchange.abandon();
            }
        }
    }

    private void remember(RequestHeader header, Object context) {
        inFlight.add(header.apiKey(), header.apiVersion(), header.correlationId(), System.nanoTime(), context);
    }
}
