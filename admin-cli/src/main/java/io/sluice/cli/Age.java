package io.sluice.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** How long ago something started, as a table shows it: {@code 45s}, {@code 3m12s}, {@code 2h05m}, {@code 3d04h}. */
final class Age {

    private Age() {}

    /** The time from {@code since} (an ISO-8601 instant) to {@code now}; the text itself when it is not an instant. */
    static String since(String since, Instant now) {
        if (since == null || since.isEmpty()) {
            return "";
        }
        try {
            return of(Duration.between(Instant.parse(since), now));
        } catch (DateTimeParseException e) {
            return since;
        }
    }

    static String of(Duration duration) {
        long seconds = Math.max(0, duration.getSeconds());
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format("%dm%02ds", seconds / 60, seconds % 60);
        }
        if (seconds < 86400) {
            return String.format("%dh%02dm", seconds / 3600, seconds % 3600 / 60);
        }
        return String.format("%dd%02dh", seconds / 86400, seconds % 86400 / 3600);
    }
}
