package io.sluice.bench.sidebyside;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ContenderTest {

    private static final Contender DIRECT = Contender.direct("pulsar://broker:6650");
    private static final Contender A = new Contender("Sluice", "pulsar://a:6650", 101);
    private static final Contender B = new Contender("Sluice B", "pulsar://b:6650", 102);
    private static final Contender C = new Contender("peer", "pulsar://c:6650", 103);

    @Test
    void anAbOfTwoJarsAlternatesWhichRunsRightAfterTheDirectRun() {
        List<Contender> all = List.of(DIRECT, A, B);
        assertEquals(List.of(DIRECT, A, B), Contender.inOrderOfRound(all, 0));
        assertEquals(List.of(DIRECT, B, A), Contender.inOrderOfRound(all, 1));
        assertEquals(List.of(DIRECT, A, B), Contender.inOrderOfRound(all, 2));
    }

    @Test
    void threeProxiesEachTakeEveryPlaceInTurnAndDirectStaysFirst() {
        List<Contender> all = List.of(DIRECT, A, B, C);
        assertEquals(List.of(DIRECT, A, B, C), Contender.inOrderOfRound(all, 0));
        assertEquals(List.of(DIRECT, B, C, A), Contender.inOrderOfRound(all, 1));
        assertEquals(List.of(DIRECT, C, A, B), Contender.inOrderOfRound(all, 2));
    }

    @Test
    void withoutADirectContenderOnlyTheProxiesTurn() {
        assertEquals(List.of(B, A), Contender.inOrderOfRound(List.of(A, B), 1));
    }
}
