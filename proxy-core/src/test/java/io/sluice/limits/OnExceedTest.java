package io.sluice.limits;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OnExceedTest {

    @Test
    void theActionsAreListedAsTheLimitsDocumentSpellsThemDefaultFirst() {
        assertEquals(List.of("delay", "reject", "notify"), OnExceed.jsonNames());
    }
}
