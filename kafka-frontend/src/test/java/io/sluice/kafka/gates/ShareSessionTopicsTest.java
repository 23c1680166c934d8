package io.sluice.kafka.gates;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A share session's topics as its requests add and forget them, bounded and reused. */
class ShareSessionTopicsTest {

    private final ShareSessionTopics session = new ShareSessionTopics();

    private List<String> ids() {
        List<String> ids = new ArrayList<>();
        for (int t = 0; t < session.count(); t++) {
            ids.add(session.idMsb(t) + ":" + session.idLsb(t));
        }
        return ids;
    }

    @Test
    void aTopicIsAddedOnceForgottenInPlaceAndANewSessionStartsEmpty() {
        session.add(1, 10, 100);
        session.add(2, 20, 100);
        session.add(1, 10, 100);
        session.add(3, 30, 100);
        session.add(1, 11, 100);
        assertEquals(List.of("1:10", "2:20", "3:30", "1:11"), ids(), "an id is both its halves");

        session.forget(2, 20);
        session.forget(9, 90);
        assertEquals(List.of("1:10", "1:11", "3:30"), ids(), "the last takes the forgotten one's place");

        session.open();
        assertEquals(List.of(), ids());
    }

    @Test
    void itHoldsAtMostAsManyTopicsAsTheConnectionTracksAndGrowsToThem() {
        for (long id = 0; id < 50; id++) {
            session.add(id, -id, 20);
        }
        assertEquals(20, session.count());
        assertEquals(19, session.idMsb(19));
        assertEquals(-19, session.idLsb(19));
    }
}
