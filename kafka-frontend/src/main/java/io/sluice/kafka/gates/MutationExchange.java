package io.sluice.kafka.gates;

import io.sluice.kafka.codec.MessageFrames;
import io.sluice.kafka.codec.MutationRequest;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.ThrottleTimeField;
import io.sluice.kafka.codec.WireCursor;
import io.sluice.quota.QuotaPath;
import org.apache.kafka.common.protocol.ApiMessage;

/**
 * The broker's response to a topic mutation the {@link MutationGate} forwarded, made what the
 * client gets: the charge of each topic the broker answered with an error given back (nothing of
 * it was created or deleted), Sluice's refusals of the topics it kept back merged in, and the
 * throttle time raised to Sluice's. Confined to the connection's event loop.
 */
final class MutationExchange implements Exchange {

    private final GateContext context;
    private final MutationRequest request;
    private final QuotaPath path;
    private final int[] charged;
    private final boolean[] refused;
    private final String message;
    private final int throttleMillis;

    /**
     * @param charged        the partitions each topic of the request was charged, 0 for none
     * @param refused        the topics Sluice refused, left out of the forwarded request; null for none
     * @param message        the error message of each refused topic; null for none
     * @param throttleMillis the throttle time the client is told, 0 for none
     */
    MutationExchange(
            GateContext context,
            MutationRequest request,
            QuotaPath path,
            int[] charged,
            boolean[] refused,
            String message,
            int throttleMillis) {
        this.context = context;
        this.request = request;
        this.path = path;
        this.charged = charged;
        this.refused = refused;
        this.message = message;
        this.throttleMillis = throttleMillis;
    }

    @Override
    public void complete(ResponseFrame response) {
        ApiMessage body = request.readResponse(response);
        boolean[] failed = request.failedIn(body);
        long now = context.clock().nanoTime();
        for (int i = 0; i < charged.length; i++) {
            if (charged[i] > 0 && failed[i]) {
                path.giveBack(now, charged[i], 0);
            }
        }
        if (refused != null) {
            request.addRefused(body, refused, message, throttleMillis);
            response.replace(MessageFrames.withBody(
                    context.out().alloc(),
                    response.frame(),
                    response.bodyIndex(),
                    body,
                    response.apiVersion(),
                    "bad_response_body"));
        } else if (throttleMillis > 0 && ThrottleTimeField.leadsBody(response.apiKey(), response.apiVersion())) {
            ThrottleTimeField.raiseLeading(response.frame(), response.bodyIndex(), throttleMillis, new WireCursor());
        }
    }

    @Override
    public void abandon() {
        // What was charged stays charged: the broker may have done it.
    }
}
