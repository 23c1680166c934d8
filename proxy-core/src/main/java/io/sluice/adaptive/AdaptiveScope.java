package io.sluice.adaptive;

/**
 * One adaptive limit's state as {@code GET /api/v1/adaptive} and {@code sluice_adaptive_rate} show
 * it: one rate (messages or bytes) of one scope's publish limit.
 *
 * @param protocol the scope's protocol ({@code pulsar}, {@code kafka}), or {@code proxy} for the proxy scope
 * @param scope the scope's kind label: {@code topic}, {@code namespace}, {@code prefix}, ...
 * @param name the scope's name
 * @param unit {@code messages} or {@code bytes}
 * @param ceiling the configured rate, per second, for all Sluices together
 * @param effectiveRate the rate in force, per second, for all Sluices together
 * @param latencyP99Millis the upstream's p99 publish latency in the last interval; null when nothing was answered
 * @param targetLatencyMillis the latency the limit holds to
 * @param floorFraction the least part of the ceiling the rate falls to
 * @param direction which way the last interval moved the rate: {@code down}, {@code up} or {@code hold}
 */
public record AdaptiveScope(
        String protocol,
        String scope,
        String name,
        String unit,
        double ceiling,
        double effectiveRate,
        Double latencyP99Millis,
        double targetLatencyMillis,
        double floorFraction,
        String direction) {}
