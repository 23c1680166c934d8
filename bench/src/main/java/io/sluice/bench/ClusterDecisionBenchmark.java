package io.sluice.bench;

import io.sluice.cluster.ClusterStore;
import io.sluice.cluster.ClusterSync;
import io.sluice.cluster.Demand;
import io.sluice.cluster.MemberDemand;
import io.sluice.cluster.MemberSeen;
import io.sluice.cluster.SyncReply;
import io.sluice.cluster.SyncRequest;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitsDocument;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.quota.NanoClock;
import io.sluice.quota.QuotaEngine;
import io.sluice.quota.QuotaPath;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The per-message decision ({@link QuotaPath#tryAcquire}) with the cluster sync running and
 * without: with {@code clusterSync=on}, a {@link ClusterSync} against a store in memory (two other
 * Sluices reporting) reads the buckets' counters and sets their shares every 10 ms, a hundred
 * times more often than the default interval, on a thread of its own. The decision itself never
 * waits for it: the figures with and without should be the same. Rates are so high that every
 * call admits, as in {@link QuotaDecisionBenchmark}.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar ClusterDecision -f 1 -wi 3 -w 2s -i 5 -r 2s}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClusterDecisionBenchmark {

    private static final String TOPIC = "persistent://public/default/orders";
    private static final int MESSAGE_BYTES = 1024;

    /** Two other Sluices, always reporting the same demand next to ours. */
    private static final class TwoOthers implements ClusterStore {
        @Override
        public SyncReply exchange(SyncRequest request) {
            Map<String, List<MemberDemand>> demands = new HashMap<>();
            request.demands()
                    .forEach((id, demand) -> demands.put(
                            id,
                            List.of(
                                    new MemberDemand(request.member(), demand),
                                    new MemberDemand("b", new Demand(1e11, 2e11)),
                                    new MemberDemand("c", new Demand(1e11, 1e11)))));
            return new SyncReply(
                    demands,
                    List.of(new MemberSeen(request.member(), 0), new MemberSeen("b", 0), new MemberSeen("c", 0)),
                    0);
        }

        @Override
        public void close() {}
    }

    /** One engine shared by all threads, with or without a sync. */
    @State(Scope.Benchmark)
    public static class Engine {
        @Param({"off", "on"})
        String clusterSync;

        QuotaPath topicAndNamespace;
        ClusterSync sync;

        @Setup
        public void resolve() {
            // 1e12 a second with 60 s of burst: even a third of it admits every call.
            RateLimit fast = new RateLimit(1e12, 1e12, 60.0, null);
            QuotaEngine engine = new QuotaEngine(
                    LimitsDocument.empty()
                            .withLimit(
                                    new ScopeRef(PulsarScopes.TOPIC, TOPIC),
                                    Limit.publish(fast).withOnExceed(OnExceed.DELAY))
                            .withLimit(
                                    new ScopeRef(PulsarScopes.NAMESPACE, "public/default"),
                                    Limit.publish(fast).withOnExceed(OnExceed.REJECT)),
                    NanoClock.SYSTEM);
            topicAndNamespace = engine.publishPath(PulsarScopes.topic(TOPIC));
            if (clusterSync.equals("on")) {
                sync = new ClusterSync(
                        "bench",
                        "a",
                        Duration.ofMillis(10),
                        engine,
                        new TwoOthers(),
                        version -> {},
                        NanoClock.SYSTEM,
                        Clock.systemUTC());
                sync.start();
            }
        }

        @TearDown
        public void stop() {
            if (sync != null) {
                sync.close();
                if (sync.status().shares().isEmpty()
                        || sync.status().shares().get(0).share() >= 1.0) {
                    throw new IllegalStateException("the sync set no shares: the benchmark measured no sync");
                }
            }
            if (topicAndNamespace.waitNanos(System.nanoTime()) > 0) {
                throw new IllegalStateException("a limited path ran dry: the benchmark measured refusals");
            }
        }
    }

    /** Topic and namespace, each with a message and a byte rate: four buckets. */
    @Benchmark
    public boolean limitedTopicAndNamespace(Engine engine, QuotaDecisionBenchmark.Caller caller) {
        return engine.topicAndNamespace.tryAcquire(caller.now, 1, MESSAGE_BYTES, caller.decision);
    }

    /** Two event loops charging the same four buckets while the sync reads and re-rates them. */
    @Benchmark
    @Threads(2)
    public boolean limitedTopicAndNamespaceTwoThreads(Engine engine, QuotaDecisionBenchmark.Caller caller) {
        return engine.topicAndNamespace.tryAcquire(caller.now, 1, MESSAGE_BYTES, caller.decision);
    }
}
