package io.sluice.admission;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How much admission control does (docs/REFERENCE.md, "Admission control"). */
public enum AdmissionMode {
    /** Admit everything; breakers stay {@link BreakerState#CLOSED}. The default. */
    DISABLED,
    /** Sample signals and step breakers, count would-be rejections, but reject nothing. */
    MONITOR_ONLY,
    /** Reject requests whose breaker is not {@link BreakerState#CLOSED}. */
    ENFORCED;

    /** The JSON spelling: {@code disabled}, {@code monitor_only} or {@code enforced}. */
    @JsonValue
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode spelled {@code jsonName}, or {@code null} if there is none. */
    static AdmissionMode fromJsonName(String jsonName) {
        for (AdmissionMode mode : values()) {
            if (mode.jsonName().equals(jsonName)) {
                return mode;
            }
        }
        return null;
    }
}
