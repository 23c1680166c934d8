package io.sluice.admin.limits;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.limits.ConnectionLimits;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.LimitsStore;

import java.io.IOException;

/**
 * GET and PUT of the per-connection limits, {@code /api/v1/limits/connection}. They always have a
 * value (the defaults when none was set), so there is no DELETE: PUT {@code {}} restores the defaults.
 */
public final class ConnectionLimitsResource {

    private final LimitsStore store;

    public ConnectionLimitsResource(LimitsStore store) {
        this.store = store;
    }

    /** The connection limits in force. */
    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(
                HttpResponseStatus.OK, LimitsJson.write(store.current().connection()));
    }

    /** Sets the connection limits; an absent field takes its default. */
    public ApiResponse put(ApiRequest request) throws IOException {
        ConnectionLimits limits = LimitsJson.parseConnection(request.body());
        LimitsDocument stored = store.update(document -> document.withConnection(limits));
        return ApiResponse.json(HttpResponseStatus.OK, LimitsJson.write(stored.connection()));
    }
}
