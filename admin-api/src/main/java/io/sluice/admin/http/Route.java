package io.sluice.admin.http;

import io.netty.handler.codec.http.HttpMethod;

/**
 * One entry of the route table: a method and path pattern, and who answers them.
 *
 * @param method the HTTP method
 * @param pattern the path pattern
 * @param handler the handler
 */
public record Route(HttpMethod method, PathPattern pattern, RouteHandler handler) {}
