package io.sluice.admission;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JvmSignalSourcesTest {

    private final FakeClock clock = new FakeClock();

    @Test
    void cpuIsCpuTimeOverWallTimeTimesProcessors() {
        AtomicLong cpuNanos = new AtomicLong(123_000_000_000L);
        ProcessCpu cpu = new ProcessCpu(cpuNanos::get, () -> 4, Duration.ofSeconds(5));
        assertTrue(Double.isNaN(cpu.read(clock.nanoTime())), "one reading is not yet a rate");

        // Two of four processors busy for a second.
        cpuNanos.addAndGet(2_000_000_000L);
        assertEquals(0.5, cpu.read(clock.advance(Duration.ofSeconds(1))), 1e-9);

        // A jump to fully busy moves the average 1 - e^(-1/5) of the way per second.
        cpuNanos.addAndGet(4_000_000_000L);
        double expected = 0.5 + (1 - Math.exp(-0.2)) * 0.5;
        assertEquals(expected, cpu.read(clock.advance(Duration.ofSeconds(1))), 1e-9);
        for (int i = 0; i < 60; i++) {
            cpuNanos.addAndGet(4_000_000_000L);
            cpu.read(clock.advance(Duration.ofSeconds(1)));
        }
        cpuNanos.addAndGet(4_000_000_000L);
        assertEquals(1.0, cpu.read(clock.advance(Duration.ofSeconds(1))), 1e-3);
    }

    @Test
    void cpuIsUnknownWhereTheJvmCannotTell() {
        ProcessCpu cpu = new ProcessCpu(() -> -1, () -> 1, Duration.ofSeconds(5));
        assertTrue(Double.isNaN(cpu.read(clock.nanoTime())));
        assertTrue(Double.isNaN(cpu.read(clock.advance(Duration.ofSeconds(1)))));
    }

    @Test
    void theRealJvmSourcesGiveShares() {
        ProcessCpu cpu = new ProcessCpu();
        cpu.read(System.nanoTime());
        double load = cpu.read(System.nanoTime() + 1);
        assertTrue(Double.isNaN(load) || load >= 0 && load <= 1, "cpu " + load);

        double heap = new HeapUsage().read(0);
        assertTrue(heap > 0 && heap <= 1, "heap " + heap);

        ByteBuffer held = ByteBuffer.allocateDirect(1 << 20);
        double direct = DirectMemoryUsage.jdkDirectBuffers().read(0);
        assertTrue(direct > 0 && direct <= 1, "direct " + direct);
        assertEquals(1 << 20, held.capacity());
        assertTrue(DirectMemoryUsage.jdkMaxDirectMemory() > 0);
    }

    @Test
    void directMemoryTakesAnyAllocatorsCounter() {
        assertEquals(0.25, new DirectMemoryUsage(() -> 256, 1024).read(0));
        assertTrue(Double.isNaN(new DirectMemoryUsage(() -> -1, 1024).read(0)), "untracked");
        assertTrue(Double.isNaN(new DirectMemoryUsage(() -> 256, 0).read(0)), "no limit known");
    }

    @Test
    void connectFailuresAreCountedPerRead() {
        UpstreamConnectFailures failures = new UpstreamConnectFailures();
        assertEquals(0, failures.read(0));
        for (int i = 0; i < 7; i++) {
            failures.record();
        }
        assertEquals(7, failures.read(0));
        assertEquals(0, failures.read(0));
    }
}
