package io.sluice.limits;

import io.sluice.quota.QuotaEngine;
import io.sluice.settings.InvalidSettingsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LimitsStoreTest {

    @TempDir
    Path dir;

    private final QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), System::nanoTime);

    static Limit publish(double messagesPerSecond) {
        return LimitsJson.parseLimit(
                ("{\"publish\":{\"messagesPerSecond\":" + messagesPerSecond + "}}").getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anAbsentFileIsCreatedEmpty() throws Exception {
        Path file = dir.resolve("sub/limits.json");
        LimitsStore store = LimitsStore.open(file, TestScopes.CATALOGUE, engine::update);
        assertTrue(Files.exists(file));
        assertEquals(LimitsDocument.empty(), store.current());
        assertEquals(LimitsDocument.empty(), LimitsJson.parseDocument(Files.readAllBytes(file), TestScopes.CATALOGUE));
    }

    @Test
    void aChangeIsPersistedAndInForceAndSurvivesReopening() throws Exception {
        Path file = dir.resolve("limits.json");
        LimitsStore store = LimitsStore.open(file, TestScopes.CATALOGUE, engine::update);
        long version = engine.version();
        store.update(d -> d.withLimit(new ScopeRef(TestScopes.TOPIC, "t/n/x"), publish(500)));
        assertTrue(engine.version() > version, "published to the engine");
        assertEquals(publish(500), engine.limits().limitsOf(TestScopes.TOPIC).get("t/n/x"));

        QuotaEngine restarted = new QuotaEngine(LimitsDocument.empty(), System::nanoTime);
        LimitsStore.open(file, TestScopes.CATALOGUE, restarted::update);
        assertEquals(publish(500), restarted.limits().limitsOf(TestScopes.TOPIC).get("t/n/x"));
    }

    @Test
    void anInvalidFileAtStartIsAnErrorNamingTheFieldNeverEmptyLimits() throws Exception {
        Path file = dir.resolve("limits.json");
        Files.writeString(file, "{\"topics\":{\"t/n/x\":{\"publish\":{\"messagesPerSecond\":-5}}}}");
        InvalidSettingsException e = assertThrows(
                InvalidSettingsException.class, () -> LimitsStore.open(file, TestScopes.CATALOGUE, engine::update));
        assertTrue(e.getMessage().contains("messagesPerSecond"), e.getMessage());
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void concurrentChangesAreSerialisedAndNoneIsLost() throws Exception {
        Path file = dir.resolve("limits.json");
        LimitsStore store = LimitsStore.open(file, TestScopes.CATALOGUE, engine::update);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String topic = "t/n/topic-" + i;
            futures.add(pool.submit(() ->
                    store.update(d -> d.withLimit(new ScopeRef(TestScopes.TOPIC, topic), publish(100)))));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        LimitsDocument onDisk = LimitsJson.parseDocument(Files.readAllBytes(file), TestScopes.CATALOGUE);
        assertEquals(40, onDisk.limitsOf(TestScopes.TOPIC).size());
        assertEquals(onDisk, store.current());
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temp files left behind");
        }
    }

    @Test
    void reloadPicksUpAnEditedFileAndRejectsABrokenOneWithoutChangingAnything() throws Exception {
        Path file = dir.resolve("limits.json");
        LimitsStore store = LimitsStore.open(file, TestScopes.CATALOGUE, engine::update);
        Files.write(
                file,
                LimitsJson.write(
                        LimitsDocument.empty().withLimit(new ScopeRef(TestScopes.NAMESPACE, "t/n"), publish(600)),
                        TestScopes.CATALOGUE));
        store.reload();
        assertEquals(
                publish(600), engine.limits().limitsOf(TestScopes.NAMESPACE).get("t/n"));

        Files.writeString(file, "{not json");
        assertThrows(InvalidSettingsException.class, store::reload);
        assertEquals(
                publish(600), engine.limits().limitsOf(TestScopes.NAMESPACE).get("t/n"));
    }
}
