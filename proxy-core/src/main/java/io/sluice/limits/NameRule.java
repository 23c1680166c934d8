package io.sluice.limits;

/**
 * What makes a scope name valid, as its front end's protocol says (Pulsar's topic names, Kafka's
 * client ids). Implementations are stateless and thread-safe.
 */
@FunctionalInterface
public interface NameRule {

    /** Takes every name: for a client that leaves the names to the server to judge. */
    NameRule ANY = name -> {};

    /**
     * @throws io.sluice.settings.InvalidSettingsException with an empty path, saying what a name
     *     must be and quoting {@code name}, when it breaks the rule
     */
    void check(String name);
}
