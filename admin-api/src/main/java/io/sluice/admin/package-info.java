/**
 * The admin server: REST API for limits, live status and admission control, Prometheus metrics
 * and probes, on its own port ({@code --admin}). {@link io.sluice.admin.AdminServer} is the entry
 * point; the route table is in {@code AdminRoutes}.
 */
package io.sluice.admin;
