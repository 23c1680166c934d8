package io.sluice.limits;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What the proxy does with a message that exceeds a limit (docs/REFERENCE.md, "Actions"). */
public enum OnExceed {
    /** Hold the message in the proxy and forward it when the buckets allow. */
    DELAY,
    /** Answer at once with an error naming the limit; do not forward. */
    REJECT,
    /** Ask a capable client to pause; fall back to {@link #DELAY} otherwise. */
    NOTIFY;

    /** The JSON spelling: {@code delay}, {@code reject} or {@code notify}. */
    @JsonValue
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Every action's JSON spelling, in this order: for whatever lists the actions a limit may take. */
    public static List<String> jsonNames() {
        return Arrays.stream(values()).map(OnExceed::jsonName).toList();
    }
}
