package io.sluice.bench.sidebyside;

import io.sluice.testkit.process.ChildStartException;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The suite's measurement discipline: no measured run starts while the machine's 1-minute load
 * average is over {@link #MAX_LOAD}. At the start of a suite a busier machine is refused outright
 * (other work is running: a build, an IDE, another benchmark); before each measured run the gate
 * first waits up to {@link #SETTLE} for the load to fall under the bar, since the suite's own
 * previous run counts in it too, and refuses only if it does not. {@code -Dbench.allowLoad=true}
 * lets every run through at any load, and the results say so.
 */
final class LoadGate {

    /** The highest 1-minute load average at which a measured run starts. */
    static final double MAX_LOAD = 1.5;

    /** The system property that lets measured runs start at any load. */
    static final String OVERRIDE_PROPERTY = "bench.allowLoad";

    /** How long a measured run waits for the suite's own earlier load to die down. */
    static final Duration SETTLE = Duration.ofSeconds(120);

    /** How often a waiting run looks again: the kernel updates the load average every 5 s. */
    private static final Duration POLL = Duration.ofSeconds(5);

    /** Thrown instead of starting a measured run on a busy machine; its message is one line for the operator. */
    static final class BusyMachine extends RuntimeException {
        BusyMachine(String message) {
            super(message);
        }
    }

    /** A suite's main body, for {@link #runOrRefuse}. */
    interface SuiteBody {
        void run() throws Exception;
    }

    private final boolean overridden;
    private final Supplier<LoadAverage> load;
    private final Duration settle;
    private final Duration poll;

    /**
     * @param overridden whether every run starts whatever the load
     * @param load       reads the load average ({@link LoadAverage#now} but in tests)
     * @param settle     how long a run waits for the load to fall
     * @param poll       how often it looks again meanwhile
     */
    LoadGate(boolean overridden, Supplier<LoadAverage> load, Duration settle, Duration poll) {
        this.overridden = overridden;
        this.load = load;
        this.settle = settle;
        this.poll = poll;
    }

    static LoadGate of(BenchSettings settings) {
        return new LoadGate(settings.allowLoad(), LoadAverage::now, SETTLE, POLL);
    }

    /**
     * Before a suite starts anything: refuses a busy machine unless overridden.
     *
     * @return the sentence the results open with, saying the load and whether the gate was overridden
     * @throws BusyMachine if the 1-minute load is over {@link #MAX_LOAD} and the gate is not overridden
     */
    String admitSuite() {
        LoadAverage now = load.get();
        if (overridden) {
            return "Load gate overridden (-D" + OVERRIDE_PROPERTY + "=true): load average " + now
                    + " at the start; every measured run started whatever the load, so these figures may have"
                    + " competed with other work and are not for comparison.";
        }
        if (now.oneMinute() > MAX_LOAD) {
            throw refusal("the suite", now.oneMinute());
        }
        return "Load gate: load average " + now + " at the start; each measured run starts only once the"
                + " 1-minute load is at most " + MarkdownTable.num(MAX_LOAD, 1) + ".";
    }

    /**
     * Before one measured run: waits until the 1-minute load is at most {@link #MAX_LOAD}, for up
     * to {@link #SETTLE}; returns at once when overridden. NaN (no {@code /proc/loadavg}) passes.
     *
     * @param run what is about to be measured, for the refusal's message
     * @return the 1-minute load average the run starts at
     * @throws BusyMachine if the load stays over the bar
     */
    double beforeRun(String run) throws InterruptedException {
        double now = load.get().oneMinute();
        long deadline = System.nanoTime() + settle.toNanos();
        while (!overridden && now > MAX_LOAD) {
            if (System.nanoTime() - deadline > 0) {
                throw refusal(run, now);
            }
            Thread.sleep(poll.toMillis());
            now = load.get().oneMinute();
        }
        return now;
    }

    /**
     * Runs a suite's main body. A refusal ends the JVM with its one line on standard error and exit
     * status 2; a broker or proxy that did not start, with what to do and where its log is kept (no stack
     * trace: the log holds the cause) and exit status 1.
     */
    static void runOrRefuse(SuiteBody suite) throws Exception {
        try {
            suite.run();
        } catch (BusyMachine e) {
            System.err.println(e.getMessage());
            System.exit(2);
        } catch (ChildStartException e) {
            System.err.println("The benchmark stopped: " + e.getMessage());
            System.exit(1);
        }
    }

    private static BusyMachine refusal(String run, double load) {
        return new BusyMachine("refusing to start " + run + ": the 1-minute load average is "
                + MarkdownTable.num(load, 2) + ", over " + MarkdownTable.num(MAX_LOAD, 1)
                + "; stop other work (builds, IDEs, other benchmarks) and run again, or pass -D"
                + OVERRIDE_PROPERTY + "=true to measure anyway (the results will say so)");
    }
}
