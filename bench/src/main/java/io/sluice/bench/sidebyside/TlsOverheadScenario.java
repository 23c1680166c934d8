package io.sluice.bench.sidebyside;

import java.nio.file.Path;
import java.util.List;

/**
 * What TLS costs through each contender: the passthrough workloads sent directly to the broker's
 * TLS port, through Sluice and through Pulsar's proxy with TLS on both legs (client to proxy,
 * proxy to broker), and directly in plaintext for scale; "vs direct" compares with direct TLS.
 * The machine's load during each workload's runs is reported beside it, split into the suite's
 * own processes and everything else, because other work on a shared machine moves the figures.
 */
final class TlsOverheadScenario {

    private TlsOverheadScenario() {}

    static void run(
            List<Contender> contenders,
            List<Workload> workloads,
            List<Long> suitePids,
            BenchSettings settings,
            Path workDir,
            Report report)
            throws Exception {
        MarkdownTable load = new MarkdownTable(
                "workload",
                "machine busy (cores of " + Runtime.getRuntime().availableProcessors() + ")",
                "suite's processes",
                "other work",
                "load average (1 min, at the end)");
        for (Workload workload : workloads) {
            MachineLoad.Mark start = MachineLoad.mark(suitePids);
            PassthroughScenario.run("tls", contenders, List.of(workload), settings, workDir, report);
            MachineLoad during = MachineLoad.since(start);
            load.row(
                    workload.name(),
                    MarkdownTable.num(during.busyCores(), 2),
                    MarkdownTable.num(during.suiteCores(), 2),
                    MarkdownTable.num(during.otherCores(), 2),
                    MarkdownTable.num(during.loadAverage(), 2));
            report.text("Machine during these runs: " + MarkdownTable.num(during.busyCores(), 2) + " of "
                    + during.cores()
                    + " cores busy, " + MarkdownTable.num(during.suiteCores(), 2) + " by the suite's processes, "
                    + MarkdownTable.num(during.otherCores(), 2) + " by other work; load average "
                    + MarkdownTable.num(during.loadAverage(), 2) + ".");
        }
        report.heading("TLS: the machine's load during the runs");
        report.table(load);
    }
}
