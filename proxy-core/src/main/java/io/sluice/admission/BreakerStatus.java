package io.sluice.admission;

import java.time.Instant;

/**
 * One request type's breaker as {@link AdmissionController#status()} saw it.
 *
 * @param state the current state
 * @param since when the breaker entered that state (or the controller started)
 * @param rejections requests rejected in enforced mode, since start
 * @param wouldBeRejections requests monitor-only mode admitted but enforced mode would have rejected, since start
 * @param reason while not closed, the message rejected requests get; otherwise {@code null}
 */
public record BreakerStatus(
        BreakerState state, Instant since, long rejections, long wouldBeRejections, String reason) {}
