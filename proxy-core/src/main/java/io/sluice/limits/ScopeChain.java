package io.sluice.limits;

import java.util.List;

/**
 * The scopes one resource's traffic must fit, as a front end's scope model says: a Pulsar topic
 * falls under its partitioned topic, namespace and tenant; a Kafka topic produced by a client
 * falls under the topic, the longest matching prefix and the client id. The proxy scope comes
 * last for every chain and is added by the engine.
 *
 * <p>A chain is resolved against a limits document because which scopes apply may depend on it
 * (the longest Kafka prefix that has a limit). Implementations are immutable and thread-safe.
 */
@FunctionalInterface
public interface ScopeChain {

    /**
     * The scopes this resource falls under, without the proxy scope. The engine charges them in
     * their kinds' rank ({@link ScopeKind#rank()}), most specific first, so a chain that joins
     * scopes from several places need not sort them; scopes of one rank keep the order listed. A
     * scope with no limit in {@code limits} may be left out or listed; the engine skips it either way.
     */
    List<ScopeRef> scopes(LimitsDocument limits);
}
