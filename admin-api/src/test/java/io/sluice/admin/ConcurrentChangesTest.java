package io.sluice.admin;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.LimitsJson;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.RateLimit;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(LeakCheck.class)
class ConcurrentChangesTest {

    private static final int CHANGES = 20;

    @TempDir
    Path dir;

    @Test
    void concurrentPutsOfDifferentTopicsAreAllKept() throws Exception {
        try (AdminFixture admin = AdminFixture.start(dir)) {
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < CHANGES; i++) {
                int n = i;
                // Separate threads and connections, released together.
                answers.add(CompletableFuture.supplyAsync(
                        () -> {
                            awaitQuietly(go);
                            return admin.send(admin.request("/api/v1/limits/topics/persistent/public/default/t" + n)
                                    .header("Content-Type", "application/json")
                                    .PUT(HttpRequest.BodyPublishers.ofString(
                                            "{\"publish\": {\"messagesPerSecond\": " + (n + 1) + "}}"))
                                    .build());
                        },
                        command -> new Thread(command).start()));
            }
            go.countDown();
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                assertEquals(200, answer.get().statusCode(), answer.get().body());
            }

            LimitsDocument inFile = LimitsJson.parseDocument(admin.fileBytes(), AdminFixture.SCOPES);
            assertEquals(CHANGES, inFile.limitsOf(PulsarScopes.TOPIC).size());
            for (int i = 0; i < CHANGES; i++) {
                Limit expected = Limit.publish(new RateLimit(i + 1.0, null, null, null));
                assertEquals(
                        expected,
                        inFile.limitsOf(PulsarScopes.TOPIC).get("persistent://public/default/t" + i),
                        "topic t" + i);
            }
            assertEquals(inFile, admin.engine.limits());
            assertEquals(inFile, reopen(admin.limitsFile));
        }
    }

    private static LimitsDocument reopen(Path file) throws IOException {
        return LimitsStore.open(
                        file, AdminFixture.SCOPES, new QuotaEngine(LimitsDocument.empty(), NanoClock.SYSTEM)::update)
                .current();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
