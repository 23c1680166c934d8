package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.DryRun;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs Helm (helm-java: Helm's own Go library, in process) on the chart. Values come from a
 * YAML text written to a temporary values file, so nested values (limits, maps) and exact types
 * go in as a user's values file would.
 */
final class Chart {

    static final String RELEASE = "sluice";
    static final String NAMESPACE = "pulsar";

    static final ObjectMapper YAML = new YAMLMapper();
    static final ObjectMapper JSON = new ObjectMapper();

    private Chart() {}

    /** {@code helm template} with the chart's defaults overridden by {@code valuesYaml}. */
    static Manifests template(String valuesYaml) {
        return Manifests.parse(templateText(valuesYaml));
    }

    /** What {@code helm template} prints, as it prints it. */
    static String templateText(String valuesYaml) {
        TemplateCommand template = new Helm(Repo.chart())
                .template()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withValuesFile(valuesFile(valuesYaml));
        return template.call();
    }

    /** The message {@code helm template} refuses {@code valuesYaml} with; fails if it renders. */
    static String refusal(String valuesYaml) {
        try {
            templateText(valuesYaml);
        } catch (RuntimeException refused) {
            return String.valueOf(refused.getMessage());
        }
        throw new AssertionError("rendered, but should have been refused:\n" + valuesYaml);
    }

    /** The NOTES an install prints, from a client-only dry run that never contacts a cluster. */
    static String notes(String valuesYaml) {
        InstallCommand install = new Helm(Repo.chart())
                .install()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withValuesFile(valuesFile(valuesYaml))
                .clientOnly()
                .withDryRunOption(DryRun.CLIENT)
                .dryRun();
        String output = install.call().getOutput();
        int notes = output.indexOf("NOTES:\n");
        if (notes < 0) {
            throw new AssertionError("install printed no NOTES:\n" + output);
        }
        return output.substring(notes + "NOTES:\n".length());
    }

    /** {@code helm lint --strict} of a chart directory (the real chart, or a copy with other values). */
    static LintResult lint(Path chartDir) {
        return new Helm(chartDir).lint().strict().call();
    }

    private static Path valuesFile(String valuesYaml) {
        try {
            Path file = Files.createTempFile("sluice-values", ".yaml");
            file.toFile().deleteOnExit();
            Files.writeString(file, valuesYaml);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The objects of one rendering. */
    record Manifests(List<JsonNode> objects) {

        static Manifests parse(String multiDocumentYaml) {
            List<JsonNode> objects = new ArrayList<>();
            try (MappingIterator<JsonNode> documents =
                    YAML.readerFor(JsonNode.class).readValues(multiDocumentYaml)) {
                while (documents.hasNext()) {
                    JsonNode document = documents.next();
                    if (document != null && !document.isNull() && !document.isMissingNode() && !document.isEmpty()) {
                        objects.add(document);
                    }
                }
            } catch (IOException e) {
                throw new AssertionError("helm rendered invalid YAML: " + e.getMessage() + "\n" + multiDocumentYaml, e);
            }
            return new Manifests(List.copyOf(objects));
        }

        List<JsonNode> ofKind(String kind) {
            return objects.stream()
                    .filter(o -> kind.equals(o.path("kind").asText()))
                    .toList();
        }

        boolean has(String kind) {
            return !ofKind(kind).isEmpty();
        }

        JsonNode one(String kind, String name) {
            List<JsonNode> matches = objects.stream()
                    .filter(o -> kind.equals(o.path("kind").asText())
                            && name.equals(o.path("metadata").path("name").asText()))
                    .toList();
            if (matches.size() != 1) {
                throw new AssertionError("expected one " + kind + " " + name + ", found " + matches.size() + " among "
                        + kindsAndNames());
            }
            return matches.get(0);
        }

        List<String> kindsAndNames() {
            return objects.stream()
                    .map(o -> o.path("kind").asText() + "/"
                            + o.path("metadata").path("name").asText())
                    .toList();
        }

        /** A ConfigMap entry holding YAML (the sidecar patch), parsed. */
        JsonNode configMapYaml(String name, String key) {
            String text = one("ConfigMap", name).path("data").path(key).asText(null);
            if (text == null) {
                throw new AssertionError("ConfigMap " + name + " has no key " + key);
            }
            try {
                return YAML.readTree(text);
            } catch (IOException e) {
                throw new AssertionError("ConfigMap " + name + "/" + key + " is not YAML: " + e.getMessage(), e);
            }
        }

        /** The pod spec of the proxy Deployment. */
        JsonNode proxyPodSpec() {
            return one("Deployment", RELEASE).path("spec").path("template").path("spec");
        }

        /** The Sluice container of the proxy Deployment. */
        JsonNode proxyContainer() {
            return PodChecks.container(proxyPodSpec(), "containers", "sluice");
        }

        Map<String, String> labels(String kind, String name) {
            return stringMap(one(kind, name).path("metadata").path("labels"));
        }
    }

    static Map<String, String> stringMap(JsonNode node) {
        Map<String, String> map = new java.util.LinkedHashMap<>();
        node.properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }
}
