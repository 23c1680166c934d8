package io.sluice.bench;

import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaDecision;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;

/**
 * The cost of one admit decision ({@link QuotaPath#tryAcquire}) on the paths a SEND meets.
 * Rates are set so high that every call admits: this measures the admit path, not refusals.
 * Time is read once per iteration, as an event loop reads it once per batch of frames; the
 * {@code ...WithClockRead} variant shows the cost with a {@code System.nanoTime()} per call.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar QuotaDecision -f 1 -wi 3 -w 2s -i 5 -r 2s}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class QuotaDecisionBenchmark {

    private static final String TOPIC = "persistent://public/default/orders";
    /** In another namespace, so that only its own bucket is on its path. */
    private static final String SHARED_TOPIC = "persistent://other/ns/shared";

    private static final int MESSAGE_BYTES = 1024;

    /** Shared by all threads, as one engine is shared by all event loops. */
    @State(Scope.Benchmark)
    public static class Engine {
        QuotaPath unlimited;
        QuotaPath topicAndNamespace;
        QuotaPath sharedTopic;

        @Setup
        public void resolve() {
            // 1e12 a second with 60 s of burst: more than a benchmark can take, so every call admits.
            RateLimit fast = new RateLimit(1e12, 1e12, 60.0, null);
            QuotaEngine engine = new QuotaEngine(
                    LimitsDocument.empty()
                            .withLimit(
                                    new ScopeRef(PulsarScopes.TOPIC, TOPIC),
                                    Limit.publish(fast).withOnExceed(OnExceed.DELAY))
                            .withLimit(
                                    new ScopeRef(PulsarScopes.NAMESPACE, "public/default"),
                                    Limit.publish(fast).withOnExceed(OnExceed.REJECT))
                            .withLimit(
                                    new ScopeRef(PulsarScopes.TOPIC, SHARED_TOPIC),
                                    Limit.publish(new RateLimit(1e12, null, 60.0, null))),
                    NanoClock.SYSTEM);
            unlimited = engine.publishPath(PulsarScopes.topic("persistent://other/ns/unlimited"));
            topicAndNamespace = engine.publishPath(PulsarScopes.topic(TOPIC));
            sharedTopic = engine.publishPath(PulsarScopes.topic(SHARED_TOPIC));
            if (!unlimited.isUnlimited() || topicAndNamespace.isUnlimited() || sharedTopic.isUnlimited()) {
                throw new IllegalStateException("benchmark paths are not what they claim");
            }
        }

        @TearDown
        public void checkNothingWasRefused() {
            long now = System.nanoTime();
            if (topicAndNamespace.waitNanos(now) > 0 || sharedTopic.waitNanos(now) > 0) {
                throw new IllegalStateException("a limited path ran dry: the benchmark measured refusals");
            }
        }
    }

    /** What each caller owns: its decision holder and its idea of now. */
    @State(Scope.Thread)
    public static class Caller {
        final QuotaDecision decision = new QuotaDecision();
        long now;

        @Setup(Level.Iteration)
        public void readClock() {
            now = System.nanoTime();
        }
    }

    @Benchmark
    public boolean unlimitedPath(Engine engine, Caller caller) {
        return engine.unlimited.tryAcquire(caller.now, 1, MESSAGE_BYTES, caller.decision);
    }

    /** Topic and namespace, each with a message and a byte rate: four buckets. */
    @Benchmark
    public boolean limitedTopicAndNamespace(Engine engine, Caller caller) {
        return engine.topicAndNamespace.tryAcquire(caller.now, 1, MESSAGE_BYTES, caller.decision);
    }

    @Benchmark
    public boolean limitedTopicAndNamespaceWithClockRead(Engine engine, Caller caller) {
        return engine.topicAndNamespace.tryAcquire(System.nanoTime(), 1, MESSAGE_BYTES, caller.decision);
    }

    /** Two threads (two event loops) charging one bucket: the CAS under contention. */
    @Benchmark
    @Threads(2)
    public boolean sharedBucketTwoThreads(Engine engine, Caller caller) {
        return engine.sharedTopic.tryAcquire(caller.now, 1, MESSAGE_BYTES, caller.decision);
    }
}
