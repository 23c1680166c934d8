package io.sluice.admin.adaptive;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.adaptive.AdaptiveScope;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;

import java.util.List;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/adaptive} (docs/REFERENCE.md, "Adaptive limits"): every adaptive limit's
 * state after the controller's last interval: its ceiling, the rate in force, the upstream latency
 * it followed against its target, and which way the rate moved.
 */
public final class AdaptiveResource {

    private final Supplier<List<AdaptiveScope>> status;

    public AdaptiveResource(Supplier<List<AdaptiveScope>> status) {
        this.status = status;
    }

    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, new Body(status.get()));
    }

    /** The JSON body. */
    record Body(List<AdaptiveScope> scopes) {}
}
