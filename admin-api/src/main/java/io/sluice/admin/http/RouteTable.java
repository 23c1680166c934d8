package io.sluice.admin.http;

import io.netty.handler.codec.http.HttpMethod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Every route of a server, looked up by method and path. Immutable once built. */
public final class RouteTable {

    private final List<Route> routes;

    private RouteTable(List<Route> routes) {
        this.routes = List.copyOf(routes);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The routes in the order they were added. */
    public List<Route> routes() {
        return routes;
    }

    /** Whether {@code GET} on {@code path} is a probe ({@link Route#probe()}). */
    public boolean isProbe(RequestPath path) {
        return find(HttpMethod.GET, path) instanceof RouteMatch.Found found
                && found.route().probe();
    }

    /** The route answering {@code method} on {@code path}, or why there is none. */
    public RouteMatch find(HttpMethod method, RequestPath path) {
        List<HttpMethod> allowed = new ArrayList<>();
        for (Route route : routes) {
            Map<String, String> params = route.pattern().match(path);
            if (params == null) {
                continue;
            }
            if (route.method().equals(method)) {
                return new RouteMatch.Found(route, params);
            }
            allowed.add(route.method());
        }
        return allowed.isEmpty() ? new RouteMatch.NoSuchPath() : new RouteMatch.WrongMethod(allowed);
    }

    /** Collects routes; a method and pattern may be added once. */
    public static final class Builder {

        private final List<Route> routes = new ArrayList<>();

        private Builder() {}

        /** Adds {@code method} on {@code pattern}, answered by {@code handler} on the handler threads. */
        public Builder add(HttpMethod method, String pattern, RouteHandler handler) {
            return add(method, pattern, handler, false);
        }

        /**
         * Adds a probe: {@code GET} on {@code pattern}, answered by {@code handler} on the event
         * loop, so it must neither block nor take long.
         */
        public Builder probe(String pattern, RouteHandler handler) {
            return add(HttpMethod.GET, pattern, handler, true);
        }

        private Builder add(HttpMethod method, String pattern, RouteHandler handler, boolean probe) {
            PathPattern parsed = PathPattern.of(pattern);
            for (Route route : routes) {
                if (route.method().equals(method) && route.pattern().template().equals(pattern)) {
                    throw new IllegalArgumentException("route added twice: " + method + " " + pattern);
                }
            }
            routes.add(new Route(method, parsed, handler, probe));
            return this;
        }

        public RouteTable build() {
            return new RouteTable(routes);
        }
    }
}
