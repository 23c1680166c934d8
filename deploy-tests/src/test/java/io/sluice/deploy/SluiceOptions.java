package io.sluice.deploy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The options of {@code sluice.jar}, read as text from the {@code @Option} annotations of
 * SluiceCommand.java, so that the Dockerfile and the chart are checked against the real command
 * line without depending on the proxy-server module.
 */
final class SluiceOptions {

    static final String COMMAND_SOURCE = "proxy-server/src/main/java/io/sluice/server/SluiceCommand.java";

    private static final Pattern NAMES = Pattern.compile("names\\s*=\\s*(\\{[^}]*}|\"[^\"]*\")");
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern DEFAULT_VALUE = Pattern.compile("defaultValue\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    /** Long option name (e.g. {@code --limits-file}) to its default value, or null without one. */
    private final Map<String, String> defaults;

    private SluiceOptions(Map<String, String> defaults) {
        this.defaults = Collections.unmodifiableMap(defaults);
    }

    static SluiceOptions load() {
        return parse(Repo.read(COMMAND_SOURCE));
    }

    static SluiceOptions parse(String source) {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (String body : annotationBodies(source, "@Option")) {
            Matcher names = NAMES.matcher(body);
            if (!names.find()) {
                throw new IllegalStateException("@Option without names: " + body);
            }
            String longest = null;
            Matcher name = STRING.matcher(names.group(1));
            while (name.find()) {
                if (longest == null || name.group(1).length() > longest.length()) {
                    longest = name.group(1);
                }
            }
            Matcher defaultValue = DEFAULT_VALUE.matcher(body);
            defaults.put(longest, defaultValue.find() ? defaultValue.group(1) : null);
        }
        return new SluiceOptions(defaults);
    }

    Set<String> longNames() {
        return defaults.keySet();
    }

    String defaultValue(String longName) {
        if (!defaults.containsKey(longName)) {
            throw new IllegalArgumentException("no option " + longName);
        }
        return defaults.get(longName);
    }

    /** The environment variable of every option, as Sluice's ConfigSources derives it. */
    Set<String> envNames() {
        Set<String> names = new java.util.TreeSet<>();
        for (String option : defaults.keySet()) {
            names.add(envName(option));
        }
        return names;
    }

    static String envName(String longOption) {
        return "SLUICE_"
                + longOption.replaceFirst("^--", "").toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** The port of a HOST:PORT default such as {@code --listen}'s {@code 0.0.0.0:6650}. */
    int defaultPort(String longName) {
        return portOf(defaultValue(longName));
    }

    static int portOf(String hostPort) {
        return Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
    }

    /** The text between the parentheses of every {@code annotation(...)}, skipping string literals. */
    private static List<String> annotationBodies(String source, String annotation) {
        List<String> bodies = new ArrayList<>();
        int at = 0;
        while ((at = source.indexOf(annotation + "(", at)) >= 0) {
            int start = at + annotation.length() + 1;
            int depth = 1;
            boolean inString = false;
            int i = start;
            for (; i < source.length() && depth > 0; i++) {
                char c = source.charAt(i);
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    depth--;
                }
            }
            bodies.add(source.substring(start, i - 1));
            at = i;
        }
        return bodies;
    }
}
