package io.sluice.admin.limits;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.LimitsStore;

import java.io.IOException;

/** GET and PUT of the whole limits document, {@code /api/v1/limits}. */
public final class LimitsDocumentResource {

    private final LimitsStore store;

    public LimitsDocumentResource(LimitsStore store) {
        this.store = store;
    }

    /** Every limit in force. */
    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, LimitsJson.write(store.current(), store.catalogue()));
    }

    /** Replaces every limit at once: the whole document is checked before anything changes. */
    public ApiResponse put(ApiRequest request) throws IOException {
        LimitsDocument stored = store.replace(LimitsJson.parseDocument(request.body(), store.catalogue()));
        return ApiResponse.json(HttpResponseStatus.OK, LimitsJson.write(stored, store.catalogue()));
    }
}
