package io.sluice.admin.http;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A complete response: status, body and the few headers the API sets. Error bodies have the
 * the documented form {@code {"error": "..."}}.
 *
 * @param status the HTTP status
 * @param contentType the body's media type, or {@code null} for no body
 * @param body the body, empty for none
 * @param headers extra headers, such as {@code Allow} on a 405
 */
public record ApiResponse(HttpResponseStatus status, String contentType, byte[] body, Map<String, String> headers) {

    private static final String JSON = HttpHeaderValues.APPLICATION_JSON.toString();

    public ApiResponse {
        headers = Map.copyOf(headers);
    }

    /** A JSON body that is already serialised. */
    public static ApiResponse json(HttpResponseStatus status, byte[] json) {
        return new ApiResponse(status, JSON, json, Map.of());
    }

    /** {@code value} serialised by {@link ApiJson}. */
    public static ApiResponse json(HttpResponseStatus status, Object value) {
        return json(status, ApiJson.write(value));
    }

    /** 204 with no body. */
    public static ApiResponse noContent() {
        return new ApiResponse(HttpResponseStatus.NO_CONTENT, null, new byte[0], Map.of());
    }

    /** An error in the documented form: {@code {"error": message}}. */
    public static ApiResponse error(HttpResponseStatus status, String message) {
        return json(status, Map.of("error", message));
    }

    /** This response with one more header. */
    public ApiResponse withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new ApiResponse(status, contentType, body, more);
    }

    /** The Netty message; the caller writes it, which releases it. */
    public FullHttpResponse toHttp(HttpVersion version) {
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, Unpooled.wrappedBuffer(body));
        if (contentType != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        }
        headers.forEach(response.headers()::set);
        // A declared length lets the keep-alive handler keep the connection open.
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }
}
