package io.sluice.admin.limits;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiException;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.ScopeRef;

import java.io.IOException;

/** GET, PUT and DELETE of one scope's limit, e.g. {@code /api/v1/limits/tenants/{tenant}}. */
public final class ScopeLimitResource {

    private final LimitsStore store;
    private final ScopeRoute route;

    public ScopeLimitResource(LimitsStore store, ScopeRoute route) {
        this.store = store;
        this.route = route;
    }

    /** The limit in force; 404 when the scope has none. */
    public ApiResponse get(ApiRequest request) {
        ScopeRef scope = route.scope(request);
        Limit limit = store.current().limitOf(scope);
        if (limit == null) {
            throw noLimit(scope);
        }
        return ApiResponse.json(HttpResponseStatus.OK, LimitsJson.write(limit));
    }

    /** Sets the scope's limit; answers the limit as stored (defaults filled in) once it is persisted. */
    public ApiResponse put(ApiRequest request) throws IOException {
        ScopeRef scope = route.scope(request);
        Limit limit = LimitsJson.parseLimit(request.body());
        store.catalogue().checkParts(scope.kind(), limit);
        LimitsDocument stored = store.update(limits -> limits.withLimit(scope, limit));
        return ApiResponse.json(HttpResponseStatus.OK, LimitsJson.write(stored.limitOf(scope)));
    }

    /** Removes the scope's limit; 404 when it has none. */
    public ApiResponse delete(ApiRequest request) throws IOException {
        ScopeRef scope = route.scope(request);
        // Checked inside the update, so a concurrent delete cannot make both answer 204.
        store.update(limits -> {
            if (limits.limitOf(scope) == null) {
                throw noLimit(scope);
            }
            return limits.withLimit(scope, null);
        });
        return ApiResponse.noContent();
    }

    private ApiException noLimit(ScopeRef scope) {
        return ApiException.notFound("no limit for " + route.describe(scope.name()));
    }
}
