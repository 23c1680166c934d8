package io.sluice.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * One limit in words for a table: {@code publish 500 msg/s, 10 MiB/s; dispatch 1k msg/s (burst 2 s)},
 * {@code publish 1M msg/s (adaptive: target 20 ms, floor 5%)}, {@code connections 10/s},
 * {@code requests 100/s}, {@code mutations 5 partitions/s},
 * {@code joins 10/min; commits 600/min}.
 */
final class LimitText {

    private LimitText() {}

    /** The rates of a scope's limit, or the connection limits, in words; anything else as JSON. */
    static String describe(JsonNode limit) {
        if (limit.has("maxPendingSends") || limit.has("maxHeldBytes")) {
            return Quantity.count(limit.path("maxPendingSends").asDouble()) + " pending sends, "
                    + Quantity.bytes(limit.path("maxHeldBytes").asDouble()) + " held, per connection";
        }
        List<String> parts = new ArrayList<>();
        rates("publish", limit.get("publish"), parts);
        rates("dispatch", limit.get("dispatch"), parts);
        perSecond("connections", "perSecond", "/s", limit.get("connections"), parts);
        perSecond("requests", "perSecond", "/s", limit.get("requests"), parts);
        perSecond("mutations", "partitionsPerSecond", " partitions/s", limit.get("mutations"), parts);
        perMinute("joins", limit.get("joinsPerMinute"), parts);
        perMinute("commits", limit.get("commitsPerMinute"), parts);
        return parts.isEmpty() ? Json.compact(limit) : String.join("; ", parts);
    }

    private static void perSecond(String what, String rateField, String unit, JsonNode events, List<String> parts) {
        if (events != null && events.hasNonNull(rateField)) {
            String text = what + " " + Quantity.count(events.get(rateField).asDouble()) + unit;
            JsonNode burst = events.get("burstSeconds");
            parts.add(burst != null && burst.asDouble() != 1.0 ? text + " (burst " + Json.plain(burst) + " s)" : text);
        }
    }

    private static void perMinute(String what, JsonNode rate, List<String> parts) {
        if (rate != null && rate.isNumber()) {
            parts.add(what + " " + Quantity.count(rate.asDouble()) + "/min");
        }
    }

    /** What happens over the limit: {@code delay}, {@code reject} or {@code notify}. */
    static String onExceed(JsonNode limit) {
        JsonNode onExceed = limit.get("onExceed");
        return onExceed == null ? "" : onExceed.asText();
    }

    private static void rates(String direction, JsonNode rates, List<String> parts) {
        if (rates == null || !rates.isObject()) {
            return;
        }
        List<String> values = new ArrayList<>();
        if (rates.hasNonNull("messagesPerSecond")) {
            values.add(Quantity.count(rates.get("messagesPerSecond").asDouble()) + " msg/s");
        }
        if (rates.hasNonNull("bytesPerSecond")) {
            values.add(Quantity.bytes(rates.get("bytesPerSecond").asDouble()) + "/s");
        }
        String text = direction + " " + String.join(", ", values);
        JsonNode burst = rates.get("burstSeconds");
        if (burst != null && burst.asDouble() != 1.0) {
            text += " (burst " + Json.plain(burst) + " s)";
        }
        JsonNode adaptive = rates.get("adaptive");
        if (adaptive != null && adaptive.isObject()) {
            text += " (adaptive: target " + Json.plain(adaptive.path("targetLatencyMillis")) + " ms, floor "
                    + adaptive.path("floorFraction")
                            .decimalValue()
                            .movePointRight(2)
                            .stripTrailingZeros()
                            .toPlainString()
                    + "%)";
        }
        parts.add(text);
    }
}
