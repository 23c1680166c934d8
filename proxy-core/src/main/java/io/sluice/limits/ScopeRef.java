package io.sluice.limits;

import java.util.Objects;

/**
 * One scope a limit may be set for: its kind and its name, as the limits document keys it
 * ({@code PULSAR_NAMESPACE public/default}, {@code KAFKA_PREFIX team-a.}).
 *
 * @param kind the level
 * @param name the scope's name; {@link ScopeKind#PROXY_NAME} for the proxy
 */
public record ScopeRef(ScopeKind kind, String name) {

    /** The proxy-wide scope. */
    public static final ScopeRef PROXY = new ScopeRef(ScopeKind.PROXY, ScopeKind.PROXY_NAME);

    public ScopeRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    /** For messages: {@code namespace public/default}, {@code prefix team-a.}, {@code proxy proxy}. */
    @Override
    public String toString() {
        return kind.label() + " " + name;
    }
}
