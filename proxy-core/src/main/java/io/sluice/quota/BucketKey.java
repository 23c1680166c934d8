package io.sluice.quota;

import io.sluice.limits.Direction;
import io.sluice.limits.ScopeRef;

import java.util.Locale;
import java.util.Objects;

/**
 * Identifies one bucket: one rate (messages or bytes) of one scope's limit in one direction. The
 * limit's values are not part of it, so a changed limit adjusts the bucket in place instead of
 * starting a new, full one.
 *
 * @param direction publish or dispatch
 * @param scope the limited scope
 * @param dimension messages or bytes
 */
public record BucketKey(Direction direction, ScopeRef scope, Dimension dimension) {

    public BucketKey {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(dimension, "dimension");
    }

    /**
     * A stable text form, the same in every Sluice and release, by which the cluster store keys its
     * reports: {@code publish messages pulsar_namespace public/default}, {@code dispatch bytes proxy
     * proxy} (the scope's {@link io.sluice.limits.ScopeKind#id()}, then its name). The name comes
     * last, so a name with spaces in it cannot be mistaken for another key.
     */
    public String id() {
        return lower(direction) + " " + lower(dimension) + " " + scope.kind().id() + " " + scope.name();
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
