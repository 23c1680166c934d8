package io.sluice.admin.http;

import io.netty.handler.codec.http.HttpMethod;

/**
 * One entry of the route table: a method and path pattern, and who answers them.
 *
 * @param method the HTTP method
 * @param pattern the path pattern
 * @param handler the handler
 * @param probe   a probe ({@code /healthz}, {@code /readyz}): answered on the admin event loop at
 *                once, ahead of API work queued for the handler threads, and on connections past
 *                the admin connection cap
 */
public record Route(HttpMethod method, PathPattern pattern, RouteHandler handler, boolean probe) {}
