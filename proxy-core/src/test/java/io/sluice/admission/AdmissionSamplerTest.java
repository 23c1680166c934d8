package io.sluice.admission;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionSamplerTest {

    @Test
    void samplesAtOnceThenEveryIntervalUntilClosed() throws InterruptedException {
        CountDownLatch twoSamples = new CountDownLatch(2);
        AtomicInteger reads = new AtomicInteger();
        SignalSource counting = now -> {
            reads.incrementAndGet();
            twoSamples.countDown();
            return 0;
        };
        AdmissionSettings settings = new AdmissionSettings(
                AdmissionMode.MONITOR_ONLY,
                AdmissionSettings.DEFAULTS.thresholds(),
                AdmissionSettings.MIN_SAMPLE_INTERVAL_MILLIS,
                3,
                10_000,
                0.1,
                3);
        AdmissionController controller = new AdmissionController(settings, Map.of(Signal.CPU, counting));

        AdmissionSampler sampler = AdmissionSampler.start(controller);
        try {
            assertTrue(twoSamples.await(5, TimeUnit.SECONDS), "sampled twice");
        } finally {
            sampler.close();
        }
        int afterClose = reads.get();
        Thread.sleep(2 * AdmissionSettings.MIN_SAMPLE_INTERVAL_MILLIS);
        assertEquals(afterClose, reads.get(), "no samples after close");
        assertNotNull(controller.status().sampledAt());
    }
}
