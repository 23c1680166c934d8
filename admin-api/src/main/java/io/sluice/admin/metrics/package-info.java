/**
 * Prometheus metrics ({@code GET /metrics}), read at scrape time from the counters the core keeps
 * ({@link io.sluice.status}, {@link io.sluice.relay.ProxyStats} of each front end,
 * {@link io.sluice.admission.AdmissionController}); the core does not know Prometheus. Each admin
 * server owns its registry, so several servers can share a JVM.
 */
package io.sluice.admin.metrics;
