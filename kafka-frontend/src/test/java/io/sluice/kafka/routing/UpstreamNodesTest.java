package io.sluice.kafka.routing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class UpstreamNodesTest {

    private final List<Integer> opened = new ArrayList<>();
    private final UpstreamNodes nodes = new UpstreamNodes(opened::add);

    @Test
    void tellsOfEachNodeOnceAndFollowsAMovedNode() {
        nodes.nodeSeen(1, "broker-1", 9092);
        nodes.nodeSeen(2, "broker-2", 9092);
        nodes.nodeSeen(1, "broker-1", 9092);
        nodes.nodeSeen(1, "broker-1b", 9094);

        assertEquals(List.of(1, 2), opened);
        assertEquals(new BrokerEndpoint("broker-1b", 9094), nodes.endpoint(1));
        assertEquals(
                Map.of(1, new BrokerEndpoint("broker-1b", 9094), 2, new BrokerEndpoint("broker-2", 9092)),
                nodes.known());
        assertNull(nodes.endpoint(3));
    }

    @Test
    void parsesBootstrapListsAsKafkaClientsWriteThem() {
        assertEquals(
                List.of(new BrokerEndpoint("a", 9092), new BrokerEndpoint("::1", 9093)),
                BrokerEndpoint.parseList(" a:9092, [::1]:9093 ,"));
        assertEquals("[::1]:9093", new BrokerEndpoint("::1", 9093).toString());
        assertThrows(IllegalArgumentException.class, () -> BrokerEndpoint.parseList(""));
        assertThrows(IllegalArgumentException.class, () -> BrokerEndpoint.parse("a"));
        assertThrows(IllegalArgumentException.class, () -> BrokerEndpoint.parse("a:0"));
        assertThrows(IllegalArgumentException.class, () -> BrokerEndpoint.parse("a:b"));
    }
}
