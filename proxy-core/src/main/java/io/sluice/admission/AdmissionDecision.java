package io.sluice.admission;

/**
 * The answer to {@link AdmissionController#admit}. Instances are shared and built ahead of time,
 * so asking allocates nothing.
 *
 * @param admitted whether to go ahead with the request
 * @param rejectMessage for a rejection, the text of the {@code ServiceNotReady} error, naming the
 *        breached signal, e.g. {@code Sluice admission control: upstream_latency_p99 1530 ms > 1000 ms;
 *        retry later}; {@code null} when admitted
 */
public record AdmissionDecision(boolean admitted, String rejectMessage) {

    /** Go ahead. */
    public static final AdmissionDecision ADMIT = new AdmissionDecision(true, null);

    /** A rejection whose message names {@code breach}. */
    static AdmissionDecision reject(Breach breach) {
        return new AdmissionDecision(false, "Sluice admission control: " + breach.describe() + "; retry later");
    }
}
