package io.sluice.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How this Sluice shares limits with others (docs/REFERENCE.md, "Cluster").
 *
 * @param storeUrl     {@code redis://host:port[/db]} or {@code rediss://...}; null when limits are this Sluice's alone
 * @param storePassword the store's password, overriding one in the URL; null for none
 * @param storeCa      PEM certificates to trust for {@code rediss://}; null for the JVM's trust store
 * @param clusterId    the key prefix: Sluices with the same id share limits
 * @param syncInterval how often each Sluice reports its usage and takes its share
 * @param limitsSource where the limits document lives
 */
public record ClusterSettings(
        String storeUrl,
        String storePassword,
        Path storeCa,
        String clusterId,
        Duration syncInterval,
        LimitsSource limitsSource) {

    private static final Pattern CLUSTER_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    private static final Duration MAX_INTERVAL = Duration.ofMinutes(1);

    /** Limits are per Sluice, from the limits file. */
    public static final ClusterSettings NONE =
            new ClusterSettings(null, null, null, "sluice", Duration.ofSeconds(1), LimitsSource.FILE);

    /** @throws IllegalArgumentException naming the option that is wrong */
    public ClusterSettings {
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(syncInterval, "syncInterval");
        Objects.requireNonNull(limitsSource, "limitsSource");
        if (!CLUSTER_ID.matcher(clusterId).matches()) {
            throw new IllegalArgumentException(
                    "invalid --cluster-id: expected 1-64 of A-Z a-z 0-9 . _ -, got '" + clusterId + "'");
        }
        if (syncInterval.compareTo(MIN_INTERVAL) < 0 || syncInterval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("invalid --cluster-sync-interval: must be between 100ms and 1m, got "
                    + syncInterval.toMillis() + "ms");
        }
        if (limitsSource == LimitsSource.STORE && storeUrl == null) {
            throw new IllegalArgumentException("--limits-source store needs --cluster-store");
        }
    }

    /** Whether this Sluice shares limits through a store. */
    public boolean enabled() {
        return storeUrl != null;
    }

    /** Where the limits document lives. */
    public enum LimitsSource {
        /** The limits file, reloaded when it changes on disk. */
        FILE,
        /** The cluster store, shared by every Sluice of the cluster id; the file keeps a copy. */
        STORE;

        static LimitsSource parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "file" -> FILE;
                case "store" -> STORE;
                default -> throw new IllegalArgumentException("expected file or store, got '" + text + "'");
            };
        }
    }

    /**
     * Parses a duration as {@code 500ms}, {@code 2s}, {@code 1m} or ISO-8601 ({@code PT2S}).
     *
     * @throws IllegalArgumentException when it is none of those
     */
    static Duration duration(String text) {
        String value = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (value.startsWith("pt")) {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            }
            if (value.endsWith("ms")) {
                return Duration.ofMillis(
                        Long.parseLong(value.substring(0, value.length() - 2).trim()));
            }
            if (value.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(
                                value.substring(0, value.length() - 1).trim())
                        * 1000));
            }
            if (value.endsWith("m")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(
                                value.substring(0, value.length() - 1).trim())
                        * 60_000));
            }
        } catch (RuntimeException e) {
            // Falls through to the message below.
        }
        throw new IllegalArgumentException("expected a duration such as 500ms, 2s or 1m, got '" + text + "'");
    }
}
