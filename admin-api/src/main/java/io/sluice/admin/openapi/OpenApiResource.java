package io.sluice.admin.openapi;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.sluice.admin.http.ApiRequest;
import io.sluice.admin.http.ApiResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /api/v1/openapi.json}: the OpenAPI 3 document, a resource next to this class. A test
 * keeps it and the route table in step.
 */
public final class OpenApiResource {

    /** The resource's name, relative to this class. */
    public static final String DOCUMENT = "openapi.json";

    private final byte[] document;

    public OpenApiResource() {
        this.document = load();
    }

    public ApiResponse get(ApiRequest request) {
        return ApiResponse.json(HttpResponseStatus.OK, document);
    }

    /** The document's bytes. */
    public static byte[] load() {
        try (InputStream in = OpenApiResource.class.getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException("resource " + DOCUMENT + " is missing from the admin-api jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
