package io.sluice.admission;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread that calls {@link AdmissionController#sample}: once at start, then every
 * {@link AdmissionSettings#sampleIntervalMillis()} as currently set, so a new interval applies
 * from the next sample. A daemon thread named {@code sluice-admission-sampler}, off the event
 * loops, because reading management beans can take a while.
 */
public final class AdmissionSampler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionSampler.class);

    private final AdmissionController controller;
    private final ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, task -> {
        Thread sampler = new Thread(task, "sluice-admission-sampler");
        sampler.setDaemon(true);
        return sampler;
    });

    private AdmissionSampler(AdmissionController controller) {
        this.controller = controller;
        // Closing should not wait out the next interval.
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Starts sampling {@code controller} at once and then every interval until {@link #close()}. */
    public static AdmissionSampler start(AdmissionController controller) {
        AdmissionSampler sampler = new AdmissionSampler(controller);
        sampler.thread.execute(sampler::sampleAndReschedule);
        return sampler;
    }

    private void sampleAndReschedule() {
        try {
            controller.sample(System.nanoTime());
        } catch (RuntimeException e) {
            // One bad sample must not stop admission control for good.
            LOG.error("Admission sample failed", e);
        }
        try {
            thread.schedule(
                    this::sampleAndReschedule, controller.settings().sampleIntervalMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // Closed while sampling: nothing more to do.
        }
    }

    /** Stops sampling; a sample under way finishes first. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
