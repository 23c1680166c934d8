package io.sluice.kafka.codec;

import org.apache.kafka.common.protocol.ApiKeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The metrics label of each Kafka API, by API key: its name in lower snake case, e.g.
 * {@code produce}, {@code api_versions}; null for a key no API has.
 */
public final class ApiLabels {

    private ApiLabels() {}

    public static List<String> byKey() {
        int highest =
                Arrays.stream(ApiKeys.values()).mapToInt(key -> key.id).max().orElse(-1);
        List<String> labels = new ArrayList<>();
        for (int id = 0; id <= highest; id++) {
            labels.add(ApiKeys.hasId(id) ? ApiKeys.forId(id).name().toLowerCase(Locale.ROOT) : null);
        }
        return labels;
    }
}
