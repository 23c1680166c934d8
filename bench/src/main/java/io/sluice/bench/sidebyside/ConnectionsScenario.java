package io.sluice.bench.sidebyside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Scenario (e), many connections: {@code bench.connections} clients (or {@code bench.manyConnections}
 * in the many-connections scenario), each with its own connection and one producer, all on one
 * topic, each sending one 100 B message a second (paced, open loop), directly and through each
 * proxy in turn, once each. What mostly idle connections cost a proxy (open files, RSS, heap,
 * native memory by kind, threads, CPU) and what the producers see (send latency), against going
 * direct.
 */
final class ConnectionsScenario {

    private static final int PAYLOAD_BYTES = 100;
    private static final double SENDS_PER_SECOND_EACH = 1;
    /** Sends time out after 30 s in {@link ProducerFleet}; this covers the last one sent. */
    private static final Duration SEND_GRACE = Duration.ofSeconds(35);
    /**
     * File descriptors per client in the hungriest process. Through a proxy each client holds two
     * connections to it (its lookup connection and its producer's); Sluice opens one to the broker
     * for each (4 files per client), Apache Pulsar's proxy measured 8.4 per client (it also keeps
     * lookup clients of its own per connection).
     */
    private static final int FILES_PER_CONNECTION = 9;
    /** Without Apache Pulsar's proxy the hungriest process is Sluice: 2 client and 2 broker sockets per client. */
    private static final int FILES_PER_CONNECTION_WITHOUT_PULSAR_PROXY = 4;
    /** Sluice's own files (jars, event loops, log, listeners) are far fewer than the JVMs' with Pulsar's proxy. */
    private static final int FILES_BESIDES_WITHOUT_PULSAR_PROXY = 256;

    private static final int FILES_BESIDES = 1024;

    private ConnectionsScenario() {}

    /**
     * Connects {@code connections} clients to each contender in turn and measures them.
     *
     * @param scenario the scenario's name in {@code results.json}
     */
    static void run(String scenario, List<Contender> contenders, int connections, BenchSettings settings, Report report)
            throws Exception {
        boolean pulsarProxy = contenders.stream().anyMatch(c -> c.name().equals(PulsarProxyProcess.NAME));
        requireOpenFileLimit(
                pulsarProxy
                        ? (long) connections * FILES_PER_CONNECTION + FILES_BESIDES
                        : (long) connections * FILES_PER_CONNECTION_WITHOUT_PULSAR_PROXY
                                + FILES_BESIDES_WITHOUT_PULSAR_PROXY);
        MarkdownTable table = new MarkdownTable(
                "contender",
                "connect + create s",
                "sent",
                "failed",
                "p50 ms",
                "p99 ms",
                "p99.9 ms",
                "p50 vs direct",
                "p99 vs direct",
                "proxy CPU % of a core",
                "proxy open files",
                "proxy RSS MiB before",
                "proxy RSS MiB (max)");
        MarkdownTable memory = new MarkdownTable(
                "contender",
                "RSS MiB (max)",
                "heap used MiB",
                "heap committed MiB",
                "native memory tracked MiB: " + JvmMemory.KINDS,
                "threads");
        warmUp(contenders.get(0), connections, settings);
        LatencySamples direct = null;
        for (Contender contender : contenders) {
            String topic = "persistent://public/default/connections-" + PassthroughScenario.slug(contender.name());
            ProcessCost idle = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
            long setupStart = System.nanoTime();
            try (PeakRss peak = contender.hasProxy() ? PeakRss.sample(contender.proxyPid()) : null;
                    ProducerFleet fleet = ProducerFleet.connect(contender.serviceUrl(), topic, connections)) {
                double setupSeconds = (System.nanoTime() - setupStart) / 1e9;
                // Every producer's first sends, and the proxy's code for this load, before measuring.
                sendUnmeasured(fleet, settings);
                double load = LoadGate.of(settings).beforeRun(connections + " clients through " + contender.name());
                LatencySamples latencies = new LatencySamples();
                ProcessCost before = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                long start = System.nanoTime();
                PacedSends sends = PacedSends.send(
                        fleet.producers(), rate(fleet), settings.connectionsSeconds(), PAYLOAD_BYTES, latencies);
                long completed = sends.awaitCompleted(SEND_GRACE);
                double seconds = (System.nanoTime() - start) / 1e9;
                ProcessCost after = contender.hasProxy() ? ProcessCost.of(contender.proxyPid()) : null;
                double loadAfter = LoadAverage.oneMinuteNow();
                report.figures().load(scenario, connections + " clients", contender.name(), 1, load, loadAfter);
                // With the fleet still connected: what the proxy holds for it.
                JvmMemory held = contender.hasProxy() ? JvmMemory.of(contender.proxyPid()) : null;
                if (direct == null) {
                    direct = latencies;
                }
                table.row(
                        contender.name(),
                        MarkdownTable.num(setupSeconds, 1),
                        sends.sent(),
                        sends.sent() - completed,
                        MarkdownTable.num(latencies.percentileMillis(0.50), 2),
                        MarkdownTable.num(latencies.percentileMillis(0.99), 2),
                        MarkdownTable.num(latencies.percentileMillis(0.999), 2),
                        MarkdownTable.num(latencies.percentileMillis(0.50) / direct.percentileMillis(0.50), 2),
                        MarkdownTable.num(latencies.percentileMillis(0.99) / direct.percentileMillis(0.99), 2),
                        after == null ? "-" : MarkdownTable.num(100 * after.cpuSecondsSince(before) / seconds, 1),
                        after == null ? "-" : after.openFiles(),
                        idle == null ? "-" : MarkdownTable.num(idle.rssBytes() / 1048576.0, 0),
                        peak == null ? "-" : MarkdownTable.num(peak.peakBytes() / 1048576.0, 0));
                System.out.printf(
                        "  connections %s: %d ready in %.1f s, %d of %d sends completed, p99 %.2f ms,"
                                + " load %.2f before, %.2f after%s%n",
                        contender.name(),
                        connections,
                        setupSeconds,
                        completed,
                        sends.sent(),
                        latencies.percentileMillis(0.99),
                        load,
                        loadAfter,
                        after == null ? "" : ", proxy open files " + after.openFiles());
                String workload = connections + " clients";
                ResultFile json = report.figures();
                json.add(
                        scenario,
                        workload,
                        contender.name(),
                        "p99 ms",
                        latencies.percentileMillis(0.99),
                        false,
                        false,
                        0.5);
                json.add(
                        scenario,
                        workload,
                        contender.name(),
                        "failed sends",
                        sends.sent() - completed,
                        false,
                        false,
                        0);
                if (contender.hasProxy()) {
                    json.add(
                            scenario,
                            workload,
                            contender.name(),
                            "p99 vs direct",
                            latencies.percentileMillis(0.99) / direct.percentileMillis(0.99),
                            false,
                            true,
                            0.1);
                    json.add(
                            scenario,
                            workload,
                            contender.name(),
                            "proxy RSS MiB (max)",
                            peak.peakBytes() / 1048576.0,
                            false,
                            false,
                            8);
                    json.add(
                            scenario,
                            workload,
                            contender.name(),
                            "proxy CPU % of a core",
                            100 * after.cpuSecondsSince(before) / seconds,
                            false,
                            false,
                            2);
                    json.add(
                            scenario,
                            workload,
                            contender.name(),
                            "proxy open files",
                            after.openFiles(),
                            false,
                            false,
                            10);
                    json.add(
                            scenario,
                            workload,
                            contender.name(),
                            "proxy heap used MiB",
                            held.heapUsedMiB(),
                            false,
                            false,
                            8);
                    json.add(
                            scenario,
                            workload,
                            contender.name(),
                            "proxy native memory committed MiB",
                            held.nativeCommittedMiB(),
                            false,
                            false,
                            8);
                    memory.row(
                            contender.name(),
                            MarkdownTable.num(peak.peakBytes() / 1048576.0, 0),
                            MarkdownTable.num(held.heapUsedMiB(), 0),
                            MarkdownTable.num(held.heapCommittedMiB(), 0),
                            held.nativeSummary(),
                            held.threads());
                }
            }
        }
        report.heading("Connections: " + connections + " clients, one connection and one producer each, "
                + MarkdownTable.num(SENDS_PER_SECOND_EACH, 0) + " msg/s each (" + PAYLOAD_BYTES
                + " B, no batching), " + MarkdownTable.num(settings.connectionsSeconds(), 0) + " s");
        report.table(table);
        report.text(
                "The proxies' memory with the fleet connected (heap from `jcmd GC.heap_info` after the measured "
                        + "sends; native memory from `jcmd VM.native_memory summary`, only when the proxy JVM runs with "
                        + "`-XX:NativeMemoryTracking=summary`, e.g. in `bench.proxyJvm`; \"other\" is where direct buffers are):");
        report.table(memory);
    }

    /**
     * The first fleet pays for the load generator's and the broker's cold code (in trials its setup
     * took six times as long as a second one against the same broker, its p50 nearly three times),
     * so an unmeasured one goes first.
     */
    private static void warmUp(Contender contender, int connections, BenchSettings settings) throws Exception {
        String topic = "persistent://public/default/connections-warm-up";
        try (ProducerFleet fleet = ProducerFleet.connect(contender.serviceUrl(), topic, connections)) {
            sendUnmeasured(fleet, settings);
        }
    }

    private static void sendUnmeasured(ProducerFleet fleet, BenchSettings settings) {
        LatencySamples discarded = new LatencySamples();
        PacedSends.send(fleet.producers(), rate(fleet), settings.warmupSeconds(), PAYLOAD_BYTES, discarded)
                .awaitCompleted(SEND_GRACE);
    }

    /** All the fleet's producers together, msg/s. */
    private static double rate(ProducerFleet fleet) {
        return fleet.producers().size() * SENDS_PER_SECOND_EACH;
    }

    /**
     * Children inherit this JVM's limit (the JVM raises its own soft limit to the hard one), so a
     * limit too low would surface as a proxy refusing connections half-way; fail early instead.
     */
    private static void requireOpenFileLimit(long needed) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                if (!soft.equals("unlimited") && Long.parseLong(soft) < needed) {
                    throw new IllegalStateException("the connections scenario needs " + needed + " open files per"
                            + " process, the limit is " + soft + "; raise it (ulimit -Hn, ulimit -n) before the run");
                }
            }
        }
    }
}
