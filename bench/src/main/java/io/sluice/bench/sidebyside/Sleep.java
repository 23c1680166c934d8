package io.sluice.bench.sidebyside;

/** {@link Thread#sleep} without the checked exception, keeping the interrupt flag. */
final class Sleep {

    private Sleep() {
    }

    static void millis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
