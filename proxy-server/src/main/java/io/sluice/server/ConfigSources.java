package io.sluice.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.sluice.admission.AdmissionJson;
import io.sluice.admission.AdmissionSettings;
import io.sluice.settings.InvalidSettingsException;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where an option's value comes from when it is not on the command line: first the environment
 * ({@code --limits-file} is {@code SLUICE_LIMITS_FILE}), then the YAML file of {@code --config}
 * ({@code limitsFile: ...}), then the option's built-in default. Flags win over both.
 */
final class ConfigSources implements IDefaultValueProvider {

    /** The config file key holding admission control settings (a map, not a single value). */
    static final String ADMISSION_KEY = "admission";

    private final Map<String, String> env;
    private final Map<String, String> file;

    ConfigSources(Map<String, String> env, Map<String, String> file) {
        this.env = env;
        this.file = file;
    }

    /** The environment variable of a long option name such as {@code --limits-file}. */
    static String envName(String longOption) {
        return "SLUICE_" + longOption.replaceFirst("^--", "").toUpperCase().replace('-', '_');
    }

    /** The YAML key of a long option name: {@code --limits-file} is {@code limitsFile}. */
    static String yamlKey(String longOption) {
        String name = longOption.replaceFirst("^--", "");
        StringBuilder key = new StringBuilder();
        boolean upper = false;
        for (char c : name.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                key.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return key.toString();
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        String longName = option.longestName();
        String fromEnv = env.get(envName(longName));
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return fromEnv;
        }
        return file.get(yamlKey(longName));
    }

    /** What a config file holds: option values by YAML key, and the admission control settings. */
    record ConfigFile(Map<String, String> options, AdmissionSettings admission) {
        static final ConfigFile NONE = new ConfigFile(Map.of(), AdmissionSettings.DEFAULTS);
    }

    /**
     * Reads a YAML map of option keys to scalar values, plus an optional {@code admission} map
     * (the body of {@code PUT /api/v1/admission}). Unknown keys are an error, so a typo in a
     * config file does not silently fall back to a default.
     */
    static ConfigFile readYaml(Path path, Set<String> knownKeys) {
        JsonNode root;
        try {
            root = new ObjectMapper(new YAMLFactory()).readTree(Files.readAllBytes(path));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("config file " + path + " is not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read config file " + path + ": " + e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        AdmissionSettings admission = AdmissionSettings.DEFAULTS;
        if (root == null || root.isMissingNode() || root.isNull()) {
            return new ConfigFile(values, admission);
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException("config file " + path + " must be a map of option keys to values");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (entry.getKey().equals(ADMISSION_KEY)) {
                try {
                    admission = AdmissionJson.parseSettings(entry.getValue(), AdmissionSettings.DEFAULTS);
                } catch (InvalidSettingsException e) {
                    throw new IllegalArgumentException("config file " + path + ": admission." + e.getMessage());
                }
                continue;
            }
            if (!knownKeys.contains(entry.getKey())) {
                throw new IllegalArgumentException("config file " + path + ": unknown key '" + entry.getKey()
                        + "' (known: " + String.join(", ", knownKeys) + ", " + ADMISSION_KEY + ")");
            }
            if (!entry.getValue().isValueNode()) {
                throw new IllegalArgumentException(
                        "config file " + path + ": '" + entry.getKey() + "' must be a single value");
            }
            if (!entry.getValue().isNull()) {
                values.put(entry.getKey(), entry.getValue().asText());
            }
        }
        return new ConfigFile(values, admission);
    }
}
