package io.sluice.kafka.gates;

import io.sluice.kafka.codec.HandledApi;
import io.sluice.kafka.codec.ProduceErrors;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.ThrottleTimeField;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.relay.MalformedFrameException;

/**
 * The broker's response to a Produce request the gate forwarded, made what the client gets: the
 * charge of each partition the broker refused given back, Sluice's answers for the partitions it
 * kept merged in, and the throttle time {@code notify} asked for raised to what the client is told
 * ({@link ProduceMute#told}). Confined to the connection's event loop.
 */
final class ProduceCompletion implements GateExchange.Owner {

    private final GateContext context;
    private final WireCursor cursor = new WireCursor();

    ProduceCompletion(GateContext context) {
        this.context = context;
    }

    @Override
    public void completed(GateExchange exchange, ResponseFrame response) {
        if (exchange.charges() > 0) {
            giveBackRefused(exchange, response);
        }
        if (exchange.verdicts() != null) {
            response.replace(exchange.verdicts().merge(context.out().alloc(), response.frame(), response.bodyIndex()));
        }
        if (exchange.notifyMillis() > 0) {
            ThrottleTimeField.raise(
                    HandledApi.PRODUCE,
                    response.apiVersion(),
                    response.frame(),
                    response.bodyIndex(),
                    ProduceMute.told(exchange.notifyMillis()),
                    cursor);
        }
    }

    /**
     * Gives back the charge of each partition the broker refused (it stored nothing of it); a
     * response the full reader cannot read gives nothing back and goes on as it is.
     */
    private void giveBackRefused(GateExchange exchange, ResponseFrame response) {
        try {
            if (!response.produceScan().refusesAny()) {
                return;
            }
            long now = context.clock().nanoTime();
            for (ProduceErrors.Refused refused :
                    ProduceErrors.refused(response.frame(), response.bodyIndex(), response.apiVersion())) {
                exchange.giveBack(refused.topic(), refused.topicId(), refused.partition(), now);
            }
        } catch (MalformedFrameException unreadable) {
            // The client gets it as the broker wrote it; what it means is for the client to find out.
        }
    }
}
