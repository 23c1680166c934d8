package io.sluice.admin.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A request the API refuses, with the status and message to answer. Thrown by handlers (and
 * from inside a limits update, which then changes nothing); the router writes the error.
 */
public final class ApiException extends RuntimeException {

    private final HttpResponseStatus status;

    public ApiException(HttpResponseStatus status, String message) {
        super(message);
        this.status = status;
    }

    /** 404 with {@code message}. */
    public static ApiException notFound(String message) {
        return new ApiException(HttpResponseStatus.NOT_FOUND, message);
    }

    /** 400 with {@code message}. */
    public static ApiException badRequest(String message) {
        return new ApiException(HttpResponseStatus.BAD_REQUEST, message);
    }

    public HttpResponseStatus status() {
        return status;
    }

    /** The error response. */
    public ApiResponse response() {
        return ApiResponse.error(status, getMessage());
    }
}
