package io.sluice.admission;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A read-only snapshot of admission control, for {@code GET /api/v1/admission}; its JSON form is
 * {@link AdmissionJson#write(AdmissionStatus)}'s.
 *
 * @param settings the settings in force, mode included
 * @param sampledAt when the latest sample was taken, {@code null} before the first
 * @param breakers every request type's breaker
 * @param signals every signal as the latest sample saw it
 * @param recentTransitions the latest breaker state changes, oldest first, at most
 *        {@link AdmissionController#TRANSITION_HISTORY}
 */
public record AdmissionStatus(
        AdmissionSettings settings,
        Instant sampledAt,
        Map<RequestType, BreakerStatus> breakers,
        Map<Signal, SignalReading> signals,
        List<Transition> recentTransitions) {

    public AdmissionStatus {
        breakers = inEnumOrder(RequestType.class, breakers);
        signals = inEnumOrder(Signal.class, signals);
        recentTransitions = List.copyOf(recentTransitions);
    }

    /** The breaker of {@code type}, or {@code null} if the snapshot has none. */
    public BreakerStatus breaker(RequestType type) {
        return breakers.get(type);
    }

    /** The reading of {@code signal}, or {@code null} if the snapshot has none. */
    public SignalReading signal(Signal signal) {
        return signals.get(signal);
    }

    /** An unmodifiable copy that iterates in declaration order, which JSON output and people expect. */
    private static <K extends Enum<K>, V> Map<K, V> inEnumOrder(Class<K> keyType, Map<K, V> map) {
        EnumMap<K, V> copy = new EnumMap<>(keyType);
        copy.putAll(map);
        return Collections.unmodifiableMap(copy);
    }
}
