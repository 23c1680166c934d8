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
    private final LimitScope scope;

    public ScopeLimitResource(LimitsStore store, LimitScope scope) {
        this.store = store;
        this.scope = scope;
    }

    /** The limit in force; 404 when the scope has none. */
    public ApiResponse get(ApiRequest request) {
        ScopeRef name = scope.scope(request);
        Limit limit = scope.read(store.current(), name);
        if (limit == null) {
            throw noLimit(name);
        }
        return ApiResponse.json(HttpResponseStatus.OK, LimitsJson.write(limit));
    }

    /** Sets the scope's limit; answers the limit as stored (defaults filled in) once it is persisted. */
    public ApiResponse put(ApiRequest request) throws IOException {
        ScopeRef name = scope.scope(request);
        Limit limit = LimitsJson.parseLimit(request.body());
        LimitsDocument stored = store.update(limits -> scope.write(limits, name, limit));
        return ApiResponse.json(HttpResponseStatus.OK, LimitsJson.write(scope.read(stored, name)));
    }

    /** Removes the scope's limit; 404 when it has none. */
    public ApiResponse delete(ApiRequest request) throws IOException {
        ScopeRef name = scope.scope(request);
        // Checked inside the update, so a concurrent delete cannot make both answer 204.
        store.update(limits -> {
            if (scope.read(limits, name) == null) {
                throw noLimit(name);
            }
            return scope.write(limits, name, null);
        });
        return ApiResponse.noContent();
    }

    private ApiException noLimit(ScopeRef name) {
        return ApiException.notFound("no limit for " + scope.describe(name.name()));
    }
}
