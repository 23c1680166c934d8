package io.sluice.cluster;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FairShareTest {

    private static MemberDemand calm(String member, double usage) {
        return new MemberDemand(member, new Demand(usage, usage));
    }

    private static MemberDemand squeezed(String member, double usage, double demand) {
        return new MemberDemand(member, new Demand(usage, demand));
    }

    @Test
    void aSluiceAloneHasTheWholeLimit() {
        assertEquals(1.0, FairShare.of("a", 1000, List.of(calm("a", 10))));
        assertEquals(1.0, FairShare.of("a", 1000, List.of(squeezed("a", 1000, 2000))));
        assertEquals(1.0, FairShare.of("a", 1000, List.of()), "its own report lost: still alone");
    }

    @Test
    void withNoTrafficAnywhereTheLimitIsSplitEvenly() {
        List<MemberDemand> idle = List.of(calm("a", 0), calm("b", 0), calm("c", 0), calm("d", 0));
        assertEquals(0.25, FairShare.of("c", 1000, idle));
    }

    @Test
    void calmSluicesGetTheirUsageAndHeadroomAndTheSqueezedOneTheRest() {
        List<MemberDemand> reports = List.of(squeezed("a", 333, 666), calm("b", 100), calm("c", 100));
        assertEquals(0.105, FairShare.of("b", 1000, reports), 1e-9);
        assertEquals(0.79, FairShare.of("a", 1000, reports), 1e-9, "all that the calm ones leave");
    }

    @Test
    void whenDemandsDoNotFitSmallNeedsAreMetAndTheRestSplitEvenly() {
        double[] parts = FairShare.allocate(1000, new double[] {1400, 100, 900}, new boolean[] {true, false, true});
        assertArrayEquals(new double[] {450, 100, 450}, parts, 1e-9);
        parts = FairShare.allocate(1000, new double[] {600, 600, 600}, new boolean[] {true, true, true});
        assertArrayEquals(new double[] {1000 / 3.0, 1000 / 3.0, 1000 / 3.0}, parts, 1e-9);
    }

    @Test
    void sparePartsGoToThoseWhoWantMoreInProportionToDemand() {
        double[] parts = FairShare.allocate(1000, new double[] {100, 300, 200}, new boolean[] {true, true, false});
        assertArrayEquals(new double[] {200, 600, 200}, parts, 1e-9);
        parts = FairShare.allocate(1000, new double[] {100, 300}, new boolean[] {false, false});
        assertArrayEquals(new double[] {250, 750}, parts, 1e-9, "nobody wants more: spare in proportion to need");
    }

    @Test
    void nobodyIsLeftWithNothing() {
        List<MemberDemand> reports = List.of(squeezed("a", 600, 1200), squeezed("b", 400, 800), calm("c", 0));
        assertEquals(1000 * FairShare.MIN_EVEN_SPLIT / 3 / 1000, FairShare.of("c", 1000, reports), 1e-9);
    }
}
