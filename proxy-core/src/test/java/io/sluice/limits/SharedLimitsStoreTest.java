package io.sluice.limits;

import io.sluice.quota.QuotaEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Limits kept in a store that several Sluices share ({@code --limits-source store}). */
class SharedLimitsStoreTest {

    private static final ScopeRef NAMESPACE = new ScopeRef(TestScopes.NAMESPACE, "t/n");
    private static final ScopeRef TENANT = new ScopeRef(TestScopes.TENANT, "t");

    @TempDir
    Path dir;

    private final InMemorySharedLimits shared = new InMemorySharedLimits();
    private final QuotaEngine one = new QuotaEngine(LimitsDocument.empty(), System::nanoTime);
    private final QuotaEngine two = new QuotaEngine(LimitsDocument.empty(), System::nanoTime);

    private static Limit publish(double messagesPerSecond) {
        return LimitsStoreTest.publish(messagesPerSecond);
    }

    @Test
    void aStoreWithoutLimitsTakesThoseOfTheFileAndAChangeReachesEverySluice() throws Exception {
        Path file = dir.resolve("one.json");
        Files.write(
                file, LimitsJson.write(LimitsDocument.empty().withLimit(TENANT, publish(100)), TestScopes.CATALOGUE));
        LimitsStore first = LimitsStore.openShared(shared, file, TestScopes.CATALOGUE, one::update);
        assertEquals(1, first.version());
        assertEquals(
                publish(100),
                one.limits().limitsOf(TestScopes.TENANT).get("t"),
                "the file's limits went into the store");

        LimitsStore second = LimitsStore.openShared(shared, dir.resolve("two.json"), TestScopes.CATALOGUE, two::update);
        assertEquals(
                publish(100),
                two.limits().limitsOf(TestScopes.TENANT).get("t"),
                "an empty disk gets the shared limits");
        assertEquals(
                publish(100),
                LimitsJson.parseDocument(Files.readAllBytes(dir.resolve("two.json")), TestScopes.CATALOGUE)
                        .limitsOf(TestScopes.TENANT)
                        .get("t"),
                "and keeps a copy");

        second.update(d -> d.withLimit(NAMESPACE, publish(500)));
        assertEquals(2, shared.version());
        first.refresh(shared.version());
        assertEquals(publish(500), one.limits().limitsOf(TestScopes.NAMESPACE).get("t/n"));
        assertEquals(2, first.version());
        long engineVersion = one.version();
        first.refresh(2);
        assertEquals(engineVersion, one.version(), "the same version is not put in force again");
    }

    @Test
    void aChangeBasedOnAnOldVersionIsAppliedAgainOnTheNewOneAndNothingIsLost() throws Exception {
        LimitsStore first = LimitsStore.openShared(shared, dir.resolve("one.json"), TestScopes.CATALOGUE, one::update);
        LimitsStore second = LimitsStore.openShared(shared, dir.resolve("two.json"), TestScopes.CATALOGUE, two::update);
        second.update(d -> d.withLimit(NAMESPACE, publish(500)));

        first.update(d -> d.withLimit(TENANT, publish(900)));
        assertEquals(3, first.version());
        assertEquals(
                publish(500),
                one.limits().limitsOf(TestScopes.NAMESPACE).get("t/n"),
                "the other Sluice's change is kept");
        assertEquals(publish(900), one.limits().limitsOf(TestScopes.TENANT).get("t"));
    }

    @Test
    void anUnreachableStoreKeepsTheLimitsInForceAndRefusesChanges() throws Exception {
        LimitsStore store = LimitsStore.openShared(shared, dir.resolve("one.json"), TestScopes.CATALOGUE, one::update);
        store.update(d -> d.withLimit(NAMESPACE, publish(500)));
        shared.down = true;
        LimitsDocument before = store.current();
        assertThrows(LimitsUnavailableException.class, () -> store.update(d -> d.withLimit(NAMESPACE, publish(1))));
        assertEquals(before, store.current());
        assertEquals(before, one.limits());

        QuotaEngine restarted = new QuotaEngine(LimitsDocument.empty(), System::nanoTime);
        LimitsStore.openShared(shared, dir.resolve("one.json"), TestScopes.CATALOGUE, restarted::update);
        assertEquals(
                publish(500),
                restarted.limits().limitsOf(TestScopes.NAMESPACE).get("t/n"),
                "a start while the store is down uses the copy");
    }

    @Test
    void aStoreThatLostItsDocumentGetsTheOneInForceBack() throws Exception {
        LimitsStore store = LimitsStore.openShared(shared, dir.resolve("one.json"), TestScopes.CATALOGUE, one::update);
        store.update(d -> d.withLimit(NAMESPACE, publish(500)));
        shared.forget();
        store.refresh(0);
        assertEquals(3, shared.version());
        assertEquals(
                publish(500),
                LimitsJson.parseDocument(
                                shared.read().orElseThrow().json().getBytes(StandardCharsets.UTF_8),
                                TestScopes.CATALOGUE)
                        .limitsOf(TestScopes.NAMESPACE)
                        .get("t/n"));
    }

    @Test
    void aSluiceThatStartedWhileTheStoreWasDownGivesAnEmptyStoreItsLimits() throws Exception {
        Path file = dir.resolve("one.json");
        Files.write(
                file, LimitsJson.write(LimitsDocument.empty().withLimit(TENANT, publish(100)), TestScopes.CATALOGUE));
        shared.down = true;
        LimitsStore store = LimitsStore.openShared(shared, file, TestScopes.CATALOGUE, one::update);
        assertEquals(0, store.version());
        assertEquals(publish(100), one.limits().limitsOf(TestScopes.TENANT).get("t"), "the copy on disk meanwhile");
        shared.down = false;
        store.refresh(0);
        assertEquals(1, shared.version());
        assertEquals(1, store.version());
    }

    @Test
    void anInvalidDocumentInTheStoreIsNotPutInForce() throws Exception {
        LimitsStore store = LimitsStore.openShared(shared, dir.resolve("one.json"), TestScopes.CATALOGUE, one::update);
        store.update(d -> d.withLimit(NAMESPACE, publish(500)));
        assertTrue(shared.compareAndSet(2, 3, "{\"tenants\":{\"t\":{\"publish\":{\"messagesPerSecond\":-1}}}}"));
        store.refresh(3);
        assertEquals(publish(500), one.limits().limitsOf(TestScopes.NAMESPACE).get("t/n"));
        assertFalse(one.limits().limitsOf(TestScopes.TENANT).containsKey("t"));
    }
}
