/**
 * The quota engine: token buckets, the paths of buckets a resource's traffic must fit, and the
 * admit decision.
 *
 * <p>Protocol-neutral on purpose: a front end describes a resource by its
 * {@link io.sluice.limits.ScopeChain} (its scope model) and the engine resolves, caches and
 * charges buckets for any chain. Nothing here knows Netty or a wire protocol. Shared state is
 * lock-free or immutable: limits are an immutable {@link io.sluice.limits.LimitsDocument}
 * swapped atomically, and buckets are CAS-updated.
 */
package io.sluice.quota;
