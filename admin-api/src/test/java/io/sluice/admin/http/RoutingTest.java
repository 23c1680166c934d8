package io.sluice.admin.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.netty.handler.codec.http.HttpMethod.DELETE;
import static io.netty.handler.codec.http.HttpMethod.GET;
import static io.netty.handler.codec.http.HttpMethod.POST;
import static io.netty.handler.codec.http.HttpMethod.PUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Paths, patterns, the route table and media types, without a server. */
class RoutingTest {

    private static final RouteHandler NOTHING = request -> ApiResponse.noContent();

    @Test
    void pathsAreSplitThenDecodedSegmentBySegment() {
        assertEquals(
                List.of("api", "v1", "a/b", "c d", "e+f", "é"),
                RequestPath.parse("/api/v1/a%2Fb/c%20d/e+f/%C3%A9").segments());
        assertEquals(List.of(""), RequestPath.parse("/").segments());
        assertEquals(List.of("a", ""), RequestPath.parse("/a/").segments());
    }

    @Test
    void badPathsAre400() {
        for (String bad : new String[] {"", "relative", "/%", "/%4", "/%zz", "/%C3"}) {
            ApiException e = assertThrows(ApiException.class, () -> RequestPath.parse(bad), bad);
            assertEquals(HttpResponseStatus.BAD_REQUEST, e.status());
            assertTrue(e.getMessage().startsWith("path: "), e.getMessage());
        }
    }

    @Test
    void patternsMatchLiteralsAndOneNonEmptySegmentPerParameter() {
        PathPattern pattern = PathPattern.of("/limits/namespaces/{tenant}/{namespace}");

        assertEquals(
                Map.of("tenant", "public", "namespace", "a b"),
                pattern.match(RequestPath.parse("/limits/namespaces/public/a%20b")));
        assertNull(pattern.match(RequestPath.parse("/limits/namespaces/public")));
        assertNull(pattern.match(RequestPath.parse("/limits/namespaces/public/x/y")));
        assertNull(pattern.match(RequestPath.parse("/limits/namespaces/public/")));
        assertNull(pattern.match(RequestPath.parse("/limits/tenants/public/x")));
    }

    @Test
    void malformedPatternsAreRefused() {
        for (String bad : new String[] {"limits", "/limits/", "/a//b", "/a/{b", "/a/{}"}) {
            assertThrows(IllegalArgumentException.class, () -> PathPattern.of(bad), bad);
        }
    }

    @Test
    void theTableFindsTheRouteOrSaysWhyNot() {
        RouteTable table = RouteTable.builder()
                .add(GET, "/items/{id}", NOTHING)
                .add(PUT, "/items/{id}", NOTHING)
                .add(GET, "/items/special", NOTHING)
                .build();

        RouteMatch found = table.find(PUT, RequestPath.parse("/items/7"));
        assertEquals(
                Map.of("id", "7"),
                assertInstanceOf(RouteMatch.Found.class, found).params());
        assertEquals(
                List.of(GET, PUT),
                assertInstanceOf(RouteMatch.WrongMethod.class, table.find(DELETE, RequestPath.parse("/items/7")))
                        .allowed());
        assertEquals(
                List.of(GET, PUT, GET),
                assertInstanceOf(RouteMatch.WrongMethod.class, table.find(POST, RequestPath.parse("/items/special")))
                        .allowed());
        assertInstanceOf(RouteMatch.NoSuchPath.class, table.find(GET, RequestPath.parse("/things")));
    }

    @Test
    void aRouteCanBeAddedOnce() {
        RouteTable.Builder builder = RouteTable.builder().add(GET, "/a", NOTHING);

        assertThrows(IllegalArgumentException.class, () -> builder.add(GET, "/a", NOTHING));
    }

    @Test
    void onlyJsonInUtf8IsAccepted() {
        for (String good : new String[] {
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            "application/json;charset=\"UTF-8\"",
            "application/json; boundary=x"
        }) {
            assertTrue(JsonMediaType.accepts(good), good);
        }
        for (String bad : new String[] {
            null, "", "text/plain", "application/jsonx", "application/json; charset=latin1", "text/json"
        }) {
            assertFalse(JsonMediaType.accepts(bad), String.valueOf(bad));
        }
    }
}
