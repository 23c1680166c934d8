package io.sluice.bench.sidebyside;

/**
 * What one producer sends: message size, client-side batching, and how many sends it keeps in
 * flight (1 is a synchronous send loop, which measures latency; more measures throughput).
 */
record Workload(String name, int payloadBytes, boolean batching, int inFlight) {

    static final Workload SYNC_1KIB = new Workload("1 KiB, no batching, 1 in flight", 1024, false, 1);
    static final Workload ASYNC_1KIB = new Workload("1 KiB, no batching, 1000 in flight", 1024, false, 1000);
    static final Workload BATCHED_100B = new Workload("100 B, batching, 1000 in flight", 100, true, 1000);
}
