package io.sluice.testkit.kafka;

import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Cluster ids never begin with "-", and the storage tool gets each as one argument. */
class ClusterIdTest {

    @Test
    void manyDrawsNeverBeginWithADashAndAreKafkaIds() {
        SplittableRandom random = new SplittableRandom(64);
        Set<String> seen = new HashSet<>();
        int underscores = 0;
        for (int i = 0; i < 100_000; i++) {
            String id = ClusterId.random(random);
            assertNotEquals('-', id.charAt(0), id);
            assertEquals(22, id.length(), id);
            assertEquals(16, Base64.getUrlDecoder().decode(id).length, id);
            assertTrue(seen.add(id), "drawn twice: " + id);
            if (id.charAt(0) == '_') {
                underscores++;
            }
        }
        // Only "-" is redrawn: "_" and the rest of the alphabet still begin ids (about 1 in 64).
        assertTrue(underscores > 1_000, underscores + " ids began with _");
    }

    @Test
    void optionIsOneArgumentWhateverTheIdBeginsWith() {
        assertEquals("--cluster-id=-AbCdEfGhIjKlMnOpQrStUv", ClusterId.option("-AbCdEfGhIjKlMnOpQrStUv"));
    }
}
