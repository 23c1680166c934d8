package io.sluice.admin.probe;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;

import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The probes. {@code /healthz} answers 200 whenever the admin server can answer at all;
 * {@code /readyz} answers 200 while the proxy says it is ready (front port listening, upstream
 * reachable, not draining) and 503 otherwise. Neither needs the admin token.
 */
public final class ProbeResource {

    private final BooleanSupplier ready;

    public ProbeResource(BooleanSupplier ready) {
        this.ready = ready;
    }

    /** Liveness. */
    public ApiResponse health(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, Map.of("status", "serving"));
    }

    /** Readiness. */
    public ApiResponse ready(ApiRequest request) {
        if (ready.getAsBoolean()) {
            return ApiResponse.json(HttpResponseStatus.OK, Map.of("status", "ready"));
        }
        return ApiResponse.error(HttpResponseStatus.SERVICE_UNAVAILABLE, "not ready");
    }
}
