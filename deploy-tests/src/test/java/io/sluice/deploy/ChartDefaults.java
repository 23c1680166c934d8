package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The chart's values.yaml, read as data. */
final class ChartDefaults {

    private ChartDefaults() {}

    static JsonNode values() {
        try {
            return Chart.YAML.readTree(Repo.chart().resolve("values.yaml").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int runAsUser() {
        return values().path("securityContext").path("runAsUser").asInt(-1);
    }
}
