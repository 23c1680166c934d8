package io.sluice.limits;

import java.util.Objects;

/**
 * A limits document as a shared store keeps it: its JSON and its version, which grows by one
 * with every change.
 *
 * @param version 1 or more
 * @param json the document, as {@link LimitsJson#write(LimitsDocument, ScopeCatalogue)} writes it
 */
public record VersionedLimits(long version, String json) {

    public VersionedLimits {
        if (version < 1) {
            throw new IllegalArgumentException("a stored version is 1 or more, got " + version);
        }
        Objects.requireNonNull(json, "json");
    }
}
