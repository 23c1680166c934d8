package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.sluice.settings.InvalidSettingsException;

/**
 * What one client connection may have outstanding (docs/REFERENCE.md, "Limits").
 *
 * @param maxPendingSends sends without a receipt yet, held in the proxy or forwarded
 * @param maxHeldBytes bytes held in the proxy
 */
public record ConnectionLimits(long maxPendingSends, long maxHeldBytes) {

    /** Enough for everything one stock client can have outstanding (its memory limit is 64 MiB). */
    public static final ConnectionLimits DEFAULT = new ConnectionLimits(100_000, 64L * 1024 * 1024);

    /** Larger values are taken for typing mistakes. */
    public static final long MAX_VALUE = 1_000_000_000_000L;

    /** @throws InvalidSettingsException naming the offending field */
    public ConnectionLimits {
        requirePositive("maxPendingSends", maxPendingSends);
        requirePositive("maxHeldBytes", maxHeldBytes);
    }

    /** The JSON form: an absent or null field takes its default. */
    @JsonCreator
    static ConnectionLimits fromJson(
            @JsonProperty("maxPendingSends") Long maxPendingSends, @JsonProperty("maxHeldBytes") Long maxHeldBytes) {
        return new ConnectionLimits(
                maxPendingSends == null ? DEFAULT.maxPendingSends : maxPendingSends,
                maxHeldBytes == null ? DEFAULT.maxHeldBytes : maxHeldBytes);
    }

    private static void requirePositive(String field, long value) {
        if (value <= 0) {
            throw new InvalidSettingsException(field, "must be a positive integer, got " + value);
        }
        if (value > MAX_VALUE) {
            throw new InvalidSettingsException(field, "must be at most 1e12, got " + value);
        }
    }
}
