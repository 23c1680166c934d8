package io.sluice.limits;

import io.sluice.quota.QuotaEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LimitsFileWatchTest {

    private static final ScopeRef NAMESPACE = new ScopeRef(TestScopes.NAMESPACE, "t/n");

    @TempDir
    Path dir;

    private final QuotaEngine engine = new QuotaEngine(LimitsDocument.empty(), System::nanoTime);

    private static byte[] namespaceLimit(double messagesPerSecond) {
        return LimitsJson.write(
                LimitsDocument.empty()
                        .withLimit(
                                NAMESPACE,
                                LimitsJson.parseLimit(
                                        ("{\"publish\":{\"messagesPerSecond\":" + messagesPerSecond + "}}")
                                                .getBytes(StandardCharsets.UTF_8))),
                TestScopes.CATALOGUE);
    }

    private double namespaceRate() {
        return engine.limits()
                .limitsOf(TestScopes.NAMESPACE)
                .get("t/n")
                .publish()
                .messagesPerSecond();
    }

    @Test
    void anEditedFileIsPutInForceAndABrokenOneIsNot() throws Exception {
        Path file = dir.resolve("limits.json");
        Files.write(file, namespaceLimit(100));
        LimitsStore store = LimitsStore.open(file, TestScopes.CATALOGUE, engine::update);
        LimitsFileWatch watch = new LimitsFileWatch(store);
        assertFalse(watch.check(), "nothing changed");

        Files.write(file, namespaceLimit(250));
        assertTrue(watch.check());
        assertEquals(250, namespaceRate());

        Files.writeString(file, "{\"namespaces\": 3}");
        assertFalse(watch.check());
        assertEquals(250, namespaceRate(), "the limits in force stay");

        store.update(d -> d.withLimit(NAMESPACE, null));
        assertFalse(watch.check(), "Sluice's own write is no news");
    }

    @Test
    void aConfigMapUpdateSwapsASymbolicLinkAndIsSeen() throws Exception {
        // As the kubelet lays out a ConfigMap volume: limits.json -> ..data/limits.json, ..data -> a timestamped
        // directory.
        Path first = Files.createDirectory(dir.resolve("..2026_01_01_00_00_00.1"));
        Files.write(first.resolve("limits.json"), namespaceLimit(100));
        Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
        Path file = dir.resolve("limits.json");
        Files.createSymbolicLink(file, Path.of("..data", "limits.json"));
        LimitsStore store = LimitsStore.open(file, TestScopes.CATALOGUE, engine::update);
        LimitsFileWatch watch = new LimitsFileWatch(store);
        assertEquals(100, namespaceRate());

        Path second = Files.createDirectory(dir.resolve("..2026_01_01_00_01_00.2"));
        Files.write(second.resolve("limits.json"), namespaceLimit(300));
        Path link = dir.resolve("..data_tmp");
        Files.createSymbolicLink(link, second.getFileName());
        Files.move(link, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        assertTrue(watch.check());
        assertEquals(300, namespaceRate());
    }
}
