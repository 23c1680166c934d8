package io.sluice.bench.sidebyside;

import java.util.concurrent.TimeUnit;

/** {@link TimeUnit#sleep} without the checked exception, keeping the interrupt flag. */
final class Sleep {

    private Sleep() {}

    static void millis(long millis) {
        nanos(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    static void nanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
