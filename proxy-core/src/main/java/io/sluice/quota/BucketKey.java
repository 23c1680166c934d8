package io.sluice.quota;

/**
 * Identifies one bucket in the engine's cache. The rate and burst are part of the key, so a
 * changed limit gets a new (full) bucket while an unchanged one keeps its state across updates.
 */
record BucketKey(Direction direction, Scope scope, String name, Dimension dimension, double rate, double burstSeconds) {
}
