package io.sluice.admin.status;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.status.ThrottleLedger;

/**
 * {@code GET /api/v1/throttled}: the producers and consumers throttled now, oldest first, as a
 * JSON array of {@link io.sluice.status.ThrottledClient}; each has either {@code producerId} or
 * {@code consumerId}.
 */
public final class ThrottledResource {

    private final ThrottleLedger ledger;

    public ThrottledResource(ThrottleLedger ledger) {
        this.ledger = ledger;
    }

    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, ledger.throttled());
    }
}
