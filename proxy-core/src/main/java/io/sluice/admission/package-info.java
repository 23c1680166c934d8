/**
 * Admission control (docs/REFERENCE.md, "Admission control"): health signals, a circuit breaker per request type, and the
 * admit decision that turns new CONNECT, LOOKUP, PRODUCER and SUBSCRIBE requests away with
 * {@code ServiceNotReady} while the proxy is overloaded.
 *
 * <p>Protocol-agnostic on purpose: nothing here knows Netty or Pulsar's wire types. The proxy
 * builds an {@link io.sluice.admission.AdmissionController} with a
 * {@link io.sluice.admission.SignalSource} per {@link io.sluice.admission.Signal}: the JVM ones
 * ({@link io.sluice.admission.ProcessCpu}, {@link io.sluice.admission.HeapUsage},
 * {@link io.sluice.admission.DirectMemoryUsage}) read themselves; the ones only the proxy can see
 * it feeds from its event loops ({@link io.sluice.admission.EventLoopLag} probes,
 * {@link io.sluice.admission.LatencyWindow} round trips,
 * {@link io.sluice.admission.UpstreamConnectFailures}). An
 * {@link io.sluice.admission.AdmissionSampler} samples off the event loops; event loops ask
 * {@link io.sluice.admission.AdmissionController#admit}, which is a couple of volatile reads.
 */
package io.sluice.admission;
