package io.sluice.quota;

import java.util.Locale;

/** The level a limit is set at, most specific first. */
public enum Scope {
    TOPIC,
    NAMESPACE,
    TENANT,
    PROXY;

    /** The name of the single proxy-wide scope. */
    public static final String PROXY_NAME = "proxy";

    /** Lower-case label for messages and metrics: {@code topic}, {@code namespace}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
