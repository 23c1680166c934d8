package io.sluice.admin.openapi;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;
import io.sluice.limits.ScopeCatalogue;

/**
 * {@code GET /api/v1/openapi.json}: the OpenAPI 3 document of this server's routes, its scopes'
 * included ({@link OpenApiDocument}), made once.
 */
public final class OpenApiResource {

    private final byte[] document;

    public OpenApiResource(ScopeCatalogue catalogue) {
        this.document = OpenApiDocument.of(catalogue);
    }

    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, document);
    }
}
