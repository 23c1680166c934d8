package io.sluice.bench.sidebyside;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * What a run's producers send: message size, client-side batching, how many sends each producer
 * keeps in flight (1 is a synchronous send loop, which measures latency; more measures
 * throughput), how many producers share the run's one client connection, and whether a consumer
 * receives every message to time it from publish to receipt.
 */
record Workload(int payloadBytes, boolean batching, int inFlight, int producers, boolean consumer) {

    static final Workload SYNC_1KIB = new Workload(1024, false, 1, 1, false);
    static final Workload ASYNC_1KIB = new Workload(1024, false, 1000, 1, false);
    static final Workload BATCHED_100B = new Workload(100, true, 1000, 1, false);

    /**
     * This workload's sends split over {@code count} producers on one client, each to its own
     * topic: the same number in flight in all (rounded down to a multiple of {@code count}), so
     * that the difference from one producer is the multiplexing, not a deeper queue.
     */
    Workload splitOver(int count) {
        return new Workload(payloadBytes, batching, Math.max(1, inFlight / count), count, consumer);
    }

    /** This workload with a consumer, on a client of its own, receiving every message. */
    Workload withConsumer() {
        return new Workload(payloadBytes, batching, inFlight, producers, true);
    }

    /**
     * The workloads of {@code all} whose {@link #name()} contains one of the parts of
     * {@code -Dbench.workloads}, separated by {@code |}, with {@code _} for a space (which
     * BENCH_OPTS cannot carry): {@code no_batching,_1000|no_batching,_62} picks the 1 KiB
     * throughput workloads of {@code passthrough} and {@code producers}. All of them when it is not set.
     */
    static List<Workload> selected(List<Workload> all) {
        return selected(all, Workload::name);
    }

    /**
     * The workloads of {@code all} whose {@code name} contains one of the parts of
     * {@code -Dbench.workloads} (separated by {@code |}, {@code _} for a space); all without it.
     */
    static <W> List<W> selected(List<W> all, Function<W, String> name) {
        String wanted = System.getProperty("bench.workloads", "");
        if (wanted.isBlank()) {
            return all;
        }
        List<String> parts = Arrays.stream(wanted.split("\\|"))
                .map(part -> part.replace('_', ' '))
                .filter(part -> !part.isBlank())
                .toList();
        return all.stream()
                .filter(workload -> parts.stream().anyMatch(name.apply(workload)::contains))
                .toList();
    }

    /** As tables, charts and file names show it, e.g. "16 producers, 1 KiB, no batching, 62 in flight each". */
    String name() {
        String size = payloadBytes % 1024 == 0 ? payloadBytes / 1024 + " KiB" : payloadBytes + " B";
        return (producers > 1 ? producers + " producers, " : "") + size + ", "
                + (batching ? "batching" : "no batching") + ", " + inFlight + " in flight"
                + (producers > 1 ? " each" : "") + (consumer ? ", to a consumer" : "");
    }
}
