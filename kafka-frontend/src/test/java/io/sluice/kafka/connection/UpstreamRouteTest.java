package io.sluice.kafka.connection;

import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.UpstreamNodes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class UpstreamRouteTest {

    private static final BrokerEndpoint A = new BrokerEndpoint("a", 9092);
    private static final BrokerEndpoint B = new BrokerEndpoint("b", 9092);
    private static final BrokerEndpoint C = new BrokerEndpoint("c", 9092);

    @Test
    void eachConnectionStartsWithTheNextBootstrapServerAndFallsBackToTheOthers() {
        UpstreamRoute route = UpstreamRoute.bootstrap(List.of(A, B, C));

        assertEquals(List.of(A, B, C), route.endpoints());
        assertEquals(List.of(B, C, A), route.endpoints());
        assertEquals(List.of(C, A, B), route.endpoints());
        assertEquals(List.of(A, B, C), route.endpoints());
    }

    @Test
    void aNodesRouteFollowsWhatWasLearntOfTheNode() {
        UpstreamNodes nodes = new UpstreamNodes(id -> {});
        UpstreamRoute route = UpstreamRoute.node(2, nodes);

        assertEquals(List.of(), route.endpoints());
        nodes.nodeSeen(2, "b", 9092);
        assertEquals(List.of(B), route.endpoints());
        nodes.nodeSeen(2, "c", 9092);
        assertEquals(List.of(C), route.endpoints());
        assertEquals("node 2", route.toString());
    }
}
