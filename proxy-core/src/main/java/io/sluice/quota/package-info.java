/**
 * Quotas: the limits model and its JSON form, token buckets, the scope chain
 * (topic &lt; namespace &lt; tenant &lt; proxy) and the admit decision.
 *
 * <p>Protocol-agnostic on purpose: nothing here knows Netty or Pulsar's wire types, so any
 * front end (Pulsar today, Kafka tomorrow) asks the same {@link io.sluice.quota.QuotaEngine}.
 * Shared state is lock-free or immutable: limits are an immutable {@link
 * io.sluice.quota.LimitsDocument} swapped atomically, and buckets are CAS-updated.
 */
package io.sluice.quota;
