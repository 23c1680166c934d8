package io.sluice.admission;

import java.time.Instant;

/**
 * One breaker state change, kept in {@link AdmissionStatus#recentTransitions()} so an operator can
 * see an open, half-open, closed cycle after the fact.
 *
 * @param type whose breaker changed
 * @param from the state before
 * @param to the state after
 * @param at when, by the controller's wall clock
 * @param breach the breach that opened the breaker; {@code null} for changes that no breach
 *        caused (a cool-down ending, enough healthy samples, admission being disabled)
 */
public record Transition(RequestType type, BreakerState from, BreakerState to, Instant at, Breach breach) {}
