package io.sluice.kafka.routing;

import io.sluice.relay.MalformedFrameException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class AdvertisedNodesTest {

    @Test
    void givesEachNodeItsOwnPortAndReportsItsRealAddress() {
        List<String> seen = new ArrayList<>();
        AdvertisedNodes nodes =
                new AdvertisedNodes("sluice", 30000, (id, host, port) -> seen.add(id + "@" + host + ":" + port));
        assertEquals(30000, nodes.advertise(0, "b0", 9092));
        assertEquals(30007, nodes.advertise(7, "b7", 9092));
        assertEquals(65535, nodes.advertise(35535, "far", 1));
        assertEquals(List.of("0@b0:9092", "7@b7:9092", "35535@far:1"), seen);
    }

    @Test
    void leavesIdsThatNameNoNodeAlone() {
        List<String> seen = new ArrayList<>();
        AdvertisedNodes nodes = new AdvertisedNodes("sluice", 30000, (id, host, port) -> seen.add(host));
        assertEquals(-1, nodes.advertise(-1, "", -1));
        assertEquals(List.of(), seen);
    }

    @Test
    void refusesANodeWhosePortWouldNotExist() {
        AdvertisedNodes nodes = new AdvertisedNodes("sluice", 30000, (id, host, port) -> {});
        MalformedFrameException e =
                assertThrows(MalformedFrameException.class, () -> nodes.advertise(35536, "b", 9092));
        assertEquals("node_port_out_of_range", e.reason());
        assertThrows(MalformedFrameException.class, () -> nodes.advertise(Integer.MAX_VALUE, "b", 9092));
    }

    @Test
    void refusesSettingsThatCannotWork() {
        assertThrows(IllegalArgumentException.class, () -> new AdvertisedNodes(" ", 30000, (id, host, port) -> {}));
        assertThrows(IllegalArgumentException.class, () -> new AdvertisedNodes("sluice", 0, (id, host, port) -> {}));
        assertThrows(
                IllegalArgumentException.class, () -> new AdvertisedNodes("sluice", 65536, (id, host, port) -> {}));
    }
}
