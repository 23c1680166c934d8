/** Kubernetes-style probes: {@code /healthz} (liveness) and {@code /readyz} (readiness). */
package io.sluice.admin.probe;
