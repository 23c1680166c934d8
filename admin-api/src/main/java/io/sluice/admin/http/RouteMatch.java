package io.sluice.admin.http;

import io.netty.handler.codec.http.HttpMethod;

import java.util.List;
import java.util.Map;

/** What the route table says about a request: a route, no such path, or a path without that method. */
public sealed interface RouteMatch {

    /**
     * A route answers the request.
     *
     * @param route the route
     * @param params its path parameters
     */
    record Found(Route route, Map<String, String> params) implements RouteMatch {}

    /** No route has this path: 404. */
    record NoSuchPath() implements RouteMatch {}

    /**
     * Routes have this path, but not with this method: 405.
     *
     * @param allowed the methods they do have, for the {@code Allow} header
     */
    record WrongMethod(List<HttpMethod> allowed) implements RouteMatch {}
}
