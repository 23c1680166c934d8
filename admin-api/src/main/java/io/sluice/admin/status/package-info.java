/**
 * Live status endpoints: who is throttled now ({@code /api/v1/throttled}) and per-topic figures
 * ({@code /api/v1/topics}), read from the core's {@link io.sluice.status} objects.
 */
package io.sluice.admin.status;
