package io.sluice.relay.tls;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.sluice.relay.tls.ServerTlsTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Changes are noticed however a file changes: rewritten in place, replaced by a rename, or moved
 * under its path by the symbolic-link swap of a Kubernetes Secret volume; nothing is reported
 * while nothing changes.
 */
class FileWatchTest {

    private static final Duration INTERVAL = Duration.ofMillis(20);

    @TempDir
    Path dir;

    @Test
    void noticesRewritesRenamesSecretVolumeSwapsAndDeletions() throws Exception {
        // A Secret volume: key -> ..data/key, ..data -> ..2024_01_01, swapped to a new directory.
        Path first = Files.createDirectory(dir.resolve("..v1"));
        Files.writeString(first.resolve("token"), "one");
        Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
        Path token = Files.createSymbolicLink(dir.resolve("token"), Path.of("..data", "token"));
        Path plain = Files.writeString(dir.resolve("plain.pem"), "a");
        AtomicInteger changes = new AtomicInteger();
        try (FileWatch watch = new FileWatch(INTERVAL)) {
            watch.watch(List.of(token, plain), changes::incrementAndGet);
            Thread.sleep(10 * INTERVAL.toMillis());
            assertEquals(0, changes.get(), "nothing changed");

            Files.writeString(plain, "b");
            await(() -> changes.get() == 1, "a file rewritten in place");

            Path next = Files.createDirectory(dir.resolve("..v2"));
            Files.writeString(next.resolve("token"), "two");
            Path link = Files.createSymbolicLink(dir.resolve("..data_tmp"), next.getFileName());
            Files.move(
                    link, dir.resolve("..data"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            await(() -> changes.get() == 2, "the Secret volume's swap");

            Path aside = Files.writeString(dir.resolve("plain.pem.new"), "c");
            Files.move(aside, plain, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            await(() -> changes.get() == 3, "a file replaced by a rename");

            Files.delete(plain);
            await(() -> changes.get() == 4, "a file deleted");
            Thread.sleep(10 * INTERVAL.toMillis());
            assertEquals(4, changes.get(), "one change is reported once");
        }
    }

    @Test
    void aFailingCallbackDoesNotStopTheWatch() throws Exception {
        Path file = Files.writeString(dir.resolve("ca.crt"), "a");
        AtomicInteger calls = new AtomicInteger();
        try (FileWatch watch = new FileWatch(INTERVAL)) {
            watch.watch(List.of(file), () -> {
                calls.incrementAndGet();
                throw new IllegalStateException("the callback fails");
            });
            Files.writeString(file, "b");
            await(() -> calls.get() == 1, "first change");
            Files.writeString(file, "c");
            await(() -> calls.get() == 2, "second change, after a failed callback");
        }
    }
}
