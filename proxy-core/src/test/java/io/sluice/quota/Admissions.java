package io.sluice.quota;

/** Counting what a quota path admits, for the engine's unit tests. */
final class Admissions {

    private Admissions() {}

    /**
     * Admits single messages of {@code bytes} at {@code now} until {@code path} refuses one, which
     * leaves its reasons in {@code decision}; returns how many got through.
     */
    static int untilRefused(QuotaPath path, long now, long bytes, QuotaDecision decision) {
        int admitted = 0;
        while (path.tryAcquire(now, 1, bytes, decision)) {
            admitted++;
        }
        return admitted;
    }
}
