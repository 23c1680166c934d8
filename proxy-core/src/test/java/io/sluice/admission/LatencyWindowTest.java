package io.sluice.admission;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyWindowTest {

    private static final long MS = 1_000_000;

    private final FakeClock clock = new FakeClock();

    /** The exact {@code quantile} of {@code values} by the same nearest-rank rule the window uses. */
    private static long exactQuantile(long[] values, double quantile) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.max(0, Math.ceil(quantile * sorted.length) - 1)];
    }

    private static void assertWithin(double tolerance, long expected, long actual) {
        assertTrue(
                Math.abs(actual - expected) <= tolerance * expected,
                "expected " + expected + " within " + tolerance * 100 + " %, got " + actual);
    }

    @Test
    void p99IsWithinFivePercentOnSyntheticData() {
        Random random = new Random(42);
        long[] uniform = new long[20_000];
        long[] skewed = new long[20_000];
        for (int i = 0; i < uniform.length; i++) {
            uniform[i] = (long) (random.nextDouble() * 2000 * MS);
            // Log-normal around 5 ms with a long tail, as real broker latency looks.
            skewed[i] = (long) (Math.exp(Math.log(5) + random.nextGaussian()) * MS);
        }
        for (long[] values : new long[][] {uniform, skewed}) {
            LatencyWindow window = new LatencyWindow();
            for (long value : values) {
                window.record(value, clock.nanoTime());
            }
            for (double quantile : new double[] {0.5, 0.9, 0.99, 0.999}) {
                assertWithin(0.05, exactQuantile(values, quantile), window.quantileNanos(quantile, clock.nanoTime()));
            }
            assertEquals(values.length, window.count(clock.nanoTime()));
        }
    }

    @Test
    void readGivesP99InMilliseconds() {
        LatencyWindow window = new LatencyWindow();
        assertTrue(Double.isNaN(window.read(clock.nanoTime())), "empty window is unknown");
        for (int i = 1; i <= 100; i++) {
            window.record(i == 100 ? 1530 * MS : 10 * MS, clock.nanoTime());
        }
        assertEquals(10, window.read(clock.nanoTime()), 10 * 0.02);
        window.record(1530 * MS, clock.nanoTime());
        assertEquals(1530, window.read(clock.nanoTime()), 1530 * 0.02);
    }

    @Test
    void everyBucketHoldsItsValuesWithinOneSixtyFourth() {
        int previous = -1;
        for (long micros = 0; micros < (1L << 36); micros = micros < 1000 ? micros + 1 : micros + micros / 7) {
            int bucket = LatencyWindow.bucket(micros);
            assertTrue(bucket >= previous, "buckets rise with the value");
            previous = bucket;
            long middle = LatencyWindow.middleMicros(bucket);
            assertTrue(Math.abs(middle - micros) <= Math.max(1, micros / 64.0), micros + " -> " + middle);
        }
        assertEquals(1023, LatencyWindow.bucket((1L << 36) - 1));
    }

    @Test
    void theWindowSlidesSlotBySlot() {
        LatencyWindow window = new LatencyWindow(Duration.ofSeconds(10), 10);
        for (int i = 0; i < 100; i++) {
            window.record(2000 * MS, clock.nanoTime());
        }
        clock.advance(Duration.ofSeconds(5));
        for (int i = 0; i < 100; i++) {
            window.record(20 * MS, clock.nanoTime());
        }
        assertEquals(200, window.count(clock.nanoTime()));
        assertWithin(0.02, 2000 * MS, window.quantileNanos(0.99, clock.nanoTime()));

        // Ten slots on, the first batch has slid out; the second is still in.
        clock.advance(Duration.ofSeconds(5));
        assertEquals(100, window.count(clock.nanoTime()));
        assertWithin(0.02, 20 * MS, window.quantileNanos(0.99, clock.nanoTime()));

        // A slot is recycled by the first record after its time: nothing old leaks into it.
        window.record(1 * MS, clock.nanoTime());
        assertEquals(101, window.count(clock.nanoTime()));

        clock.advance(Duration.ofSeconds(10));
        assertEquals(0, window.count(clock.nanoTime()));
        assertEquals(-1, window.quantileNanos(0.99, clock.nanoTime()));
    }

    @Test
    void recordsOlderThanTheWindowAreDropped() {
        LatencyWindow window = new LatencyWindow(Duration.ofSeconds(10), 10);
        long then = clock.nanoTime();
        clock.advance(Duration.ofSeconds(30));
        window.record(5 * MS, clock.nanoTime());
        // A thread that measured 30 s ago and only now records: its slot of the ring holds newer times.
        window.record(5 * MS, then);
        assertEquals(1, window.count(clock.nanoTime()));
    }

    @Test
    void extremeTimesAreClampedAndNegativeClockValuesWork() {
        LatencyWindow window = new LatencyWindow();
        long negativeNow = -5_000_000_000L;
        window.record(-3, negativeNow);
        window.record(Long.MAX_VALUE, negativeNow);
        assertEquals(2, window.count(negativeNow));
        assertEquals(0, window.quantileNanos(0, negativeNow));
        assertTrue(window.quantileNanos(1, negativeNow) > 18 * 3600 * 1_000_000_000L, "about 19 hours");
    }

    @Test
    void recordingAllocatesNothing() {
        LatencyWindow window = new LatencyWindow();
        long[] now = {clock.nanoTime()};
        // Moving time recycles slots as it goes.
        assertEquals(0, AllocationMeter.bytesPerCall(() -> window.record(12 * MS, now[0] += MS)));
    }

    @Test
    void rejectsBadShapes() {
        assertThrows(IllegalArgumentException.class, () -> new LatencyWindow(Duration.ofSeconds(10), 1));
        assertThrows(IllegalArgumentException.class, () -> new LatencyWindow(Duration.ofMillis(5), 10));
        assertThrows(IllegalArgumentException.class, () -> new LatencyWindow().quantileNanos(1.5, 0));
    }

    @Test
    void twoThreadsRecordingAtOnceLoseNothing() throws InterruptedException {
        LatencyWindow window = new LatencyWindow();
        // The slot's first record recycles it, and records racing a recycling are dropped by design.
        window.record(10 * MS, clock.nanoTime());
        int perThread = 200_000;
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            long latency = (t + 1) * 10 * MS;
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        window.record(latency, clock.nanoTime());
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            threads[t].start();
        }
        start.countDown();
        // Reads race the writers too.
        while (threads[0].isAlive() || threads[1].isAlive()) {
            long p99 = window.quantileNanos(0.99, clock.nanoTime());
            assertTrue(p99 == -1 || p99 > 9 * MS && p99 < 21 * MS, "p99 " + p99);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(null, failure.get());
        assertEquals(2L * perThread + 1, window.count(clock.nanoTime()));
        assertWithin(0.02, 10 * MS, window.quantileNanos(0.25, clock.nanoTime()));
        assertWithin(0.02, 20 * MS, window.quantileNanos(0.75, clock.nanoTime()));
    }
}
