package io.sluice.admission;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One request type's circuit breaker. The sampler thread steps it once per sample; event loops
 * only read its state and, when half-open, take a probe ticket.
 *
 * <ul>
 *   <li>CLOSED to OPEN after {@code openAfterBreaches} consecutive breached samples;</li>
 *   <li>OPEN to HALF_OPEN at the first sample at least {@code coolDownMillis} after opening,
 *       whatever that sample finds (it was measured while open, so it says nothing of the probes);</li>
 *   <li>HALF_OPEN to CLOSED after {@code closeAfterHealthy} consecutive healthy samples;</li>
 *   <li>HALF_OPEN to OPEN on any breached sample, starting a new cool-down.</li>
 * </ul>
 */
final class Breaker {

    private final RequestType type;
    private volatile BreakerState state = BreakerState.CLOSED;
    private volatile AdmissionDecision rejection;
    private final AtomicLong probeTickets = new AtomicLong();

    // Written only by the sampler, under the controller's lock.
    private int consecutiveBreaches;
    private int consecutiveHealthy;
    private long openedAtNanos;
    private Instant since;

    Breaker(RequestType type, Instant since) {
        this.type = type;
        this.since = since;
    }

    BreakerState state() {
        return state;
    }

    /** When the breaker entered its current state (or was created). */
    Instant since() {
        return since;
    }

    /** The rejection naming the latest breach; {@code null} until the breaker first opens. */
    AdmissionDecision rejection() {
        return rejection;
    }

    /**
     * Whether a half-open breaker lets this request through. Deterministic: of every run of
     * requests, the k-th is admitted when {@code ceil(k * share)} steps up, so the first request
     * after half-opening goes through and then exactly {@code share} of the rest (1 in 10 for 0.1).
     */
    boolean admitsProbe(double share) {
        long ticket = probeTickets.getAndIncrement();
        return Math.ceil((ticket + 1) * share) > Math.ceil(ticket * share);
    }

    /**
     * Applies one sample's verdict.
     *
     * @param breach the worst breach of the sample, or {@code null} if it was healthy
     * @return the state change, or {@code null} if the state stayed
     */
    Transition step(Breach breach, long nowNanos, AdmissionSettings settings, Instant wallNow) {
        if (breach != null) {
            rejection = AdmissionDecision.reject(breach);
        }
        return switch (state) {
            case CLOSED -> {
                consecutiveBreaches = breach == null ? 0 : consecutiveBreaches + 1;
                yield consecutiveBreaches >= settings.openAfterBreaches() ? open(nowNanos, wallNow, breach) : null;
            }
            case OPEN ->
                nowNanos - openedAtNanos >= settings.coolDownMillis() * 1_000_000L
                        ? moveTo(BreakerState.HALF_OPEN, wallNow, null)
                        : null;
            case HALF_OPEN -> {
                if (breach != null) {
                    yield open(nowNanos, wallNow, breach);
                }
                consecutiveHealthy++;
                yield consecutiveHealthy >= settings.closeAfterHealthy()
                        ? moveTo(BreakerState.CLOSED, wallNow, null)
                        : null;
            }
        };
    }

    /** Back to CLOSED with nothing counted, as when admission control is disabled. */
    Transition reset(Instant wallNow) {
        consecutiveBreaches = 0;
        return state == BreakerState.CLOSED ? null : moveTo(BreakerState.CLOSED, wallNow, null);
    }

    private Transition open(long nowNanos, Instant wallNow, Breach breach) {
        openedAtNanos = nowNanos;
        return moveTo(BreakerState.OPEN, wallNow, breach);
    }

    private Transition moveTo(BreakerState to, Instant wallNow, Breach breach) {
        BreakerState from = state;
        consecutiveBreaches = 0;
        consecutiveHealthy = 0;
        probeTickets.set(0);
        since = wallNow;
        state = to;
        return new Transition(type, from, to, wallNow, breach);
    }
}
