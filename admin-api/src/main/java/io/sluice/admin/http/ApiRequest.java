package io.sluice.admin.http;

import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;

import java.util.Map;

/**
 * A request as a route handler sees it: already routed, with its path parameters decoded and
 * its body copied out of Netty's buffers (at most 1 MiB), so handlers own no buffers.
 *
 * @param method    the HTTP method
 * @param path      the path, percent-decoded
 * @param params    path parameters by the names in the route's pattern, percent-decoded
 * @param headers   the request headers
 * @param body      the request body, empty when there is none
 * @param requester who sent it, for the audit
 */
public record ApiRequest(
        HttpMethod method,
        RequestPath path,
        Map<String, String> params,
        HttpHeaders headers,
        byte[] body,
        Requester requester) {

    public ApiRequest {
        params = Map.copyOf(params);
    }

    /** The path parameter {@code name}; the route's pattern guarantees it is there. */
    public String param(String name) {
        String value = params.get(name);
        if (value == null) {
            throw new IllegalArgumentException("the route has no parameter " + name);
        }
        return value;
    }
}
