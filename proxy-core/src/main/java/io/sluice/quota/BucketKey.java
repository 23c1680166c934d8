package io.sluice.quota;

import io.sluice.limits.Direction;
import io.sluice.limits.ScopeRef;

/**
 * Identifies one bucket in the engine's cache. The rate and burst are part of the key, so a
 * changed limit gets a new (full) bucket while an unchanged one keeps its state across updates.
 */
record BucketKey(Direction direction, ScopeRef scope, Dimension dimension, double rate, double burstSeconds) {
}
