package io.sluice.relay;

import io.sluice.status.ThrottleLedger;

/**
 * What every {@link Hold} of one client connection shares: the connection's one timer, its
 * budget (held bytes pause its reading), the throttle ledger that times each delay, and the flush
 * that sends what a release forwarded. Confined to the connection's event loop.
 *
 * @param timers    the connection's one timer
 * @param budget    the connection's limits on what it has outstanding
 * @param throttles the ledger whose delay histogram each released frame is recorded in
 * @param flush     writes what a release run queued, which no read batch will flush
 */
public record ConnectionHolds(WakeUps timers, ConnectionBudget budget, ThrottleLedger throttles, Runnable flush) {}
