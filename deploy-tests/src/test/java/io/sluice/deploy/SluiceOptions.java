package io.sluice.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The options of {@code sluice.jar}, read as text from the {@code @Option} annotations of
 * SluiceCommand.java and the {@code FrontEndOption.text(...)} and {@code FrontEndOption.flag(...)}
 * declarations of every front end's {@code *FrontEndFactory.java}, so that the Dockerfile and the
 * chart are checked against the real command line without depending on the proxy-server module.
 */
final class SluiceOptions {

    static final String COMMAND_SOURCE = "proxy-server/src/main/java/io/sluice/server/SluiceCommand.java";

    private static final Pattern NAMES = Pattern.compile("names\\s*=\\s*(\\{[^}]*}|\"[^\"]*\")");
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern DEFAULT_VALUE = Pattern.compile("defaultValue\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    /** {@code --help} and {@code --version}, which configure nothing. */
    private static final Pattern HELP = Pattern.compile("(usageHelp|versionHelp)\\s*=\\s*true");

    private static final Pattern CONSTANT =
            Pattern.compile("static\\s+final\\s+String\\s+(\\w+)\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*;");

    /** Long option name (e.g. {@code --limits-file}) to its default value, or null without one. */
    private final Map<String, String> defaults;

    private SluiceOptions(Map<String, String> defaults) {
        this.defaults = Collections.unmodifiableMap(defaults);
    }

    static SluiceOptions load() {
        Map<String, String> defaults = new LinkedHashMap<>(parse(Repo.read(COMMAND_SOURCE)).defaults);
        for (Path factory : frontEndFactories()) {
            try {
                defaults.putAll(parseFrontEndOptions(Files.readString(factory)).defaults);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new SluiceOptions(defaults);
    }

    /** Every front end's factory source in the repository. */
    private static List<Path> frontEndFactories() {
        try (Stream<Path> files = Files.find(Repo.root(), 16, (path, attributes) -> {
            String name = path.getFileName().toString();
            String where = path.toString().replace('\\', '/');
            return name.endsWith("FrontEndFactory.java")
                    && !name.equals("FrontEndFactory.java")
                    && where.contains("/src/main/java/")
                    && !where.contains("/target/");
        })) {
            List<Path> factories = files.sorted().toList();
            if (factories.isEmpty()) {
                throw new IllegalStateException("no *FrontEndFactory.java under " + Repo.root());
            }
            return factories;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The options of a front end's factory: {@code FrontEndOption.text(order, NAME, "LABEL",
     * "default" or null, "description")} and {@code FrontEndOption.flag(order, NAME, "description")},
     * where NAME is a string literal or a {@code static final String} constant of the same source.
     */
    static SluiceOptions parseFrontEndOptions(String source) {
        Map<String, String> constants = new LinkedHashMap<>();
        Matcher constant = CONSTANT.matcher(source);
        while (constant.find()) {
            constants.put(constant.group(1), constant.group(2));
        }
        Map<String, String> defaults = new LinkedHashMap<>();
        for (List<String> arguments : callArguments(source, "FrontEndOption.text")) {
            defaults.put(stringValue(arguments.get(1), constants), stringValue(arguments.get(3), constants));
        }
        for (List<String> arguments : callArguments(source, "FrontEndOption.flag")) {
            defaults.put(stringValue(arguments.get(1), constants), "false");
        }
        return new SluiceOptions(defaults);
    }

    /** A literal's text, a constant's value, or null for {@code null}. */
    private static String stringValue(String argument, Map<String, String> constants) {
        if (argument.equals("null")) {
            return null;
        }
        Matcher literal = STRING.matcher(argument);
        if (literal.matches()) {
            return literal.group(1);
        }
        if (!constants.containsKey(argument)) {
            throw new IllegalStateException("neither a string nor a constant of the file: " + argument);
        }
        return constants.get(argument);
    }

    /** The arguments, trimmed, of every call of {@code method} in {@code source}. */
    private static List<List<String>> callArguments(String source, String method) {
        List<List<String>> calls = new ArrayList<>();
        int at = 0;
        while ((at = source.indexOf(method + "(", at)) >= 0) {
            int start = at + method.length() + 1;
            List<Integer> commas = new ArrayList<>();
            int end = closing(source, start, commas);
            List<String> arguments = new ArrayList<>();
            int from = start;
            for (int comma : commas) {
                arguments.add(source.substring(from, comma).trim());
                from = comma + 1;
            }
            arguments.add(source.substring(from, end).trim());
            calls.add(arguments);
            at = end;
        }
        return calls;
    }

    static SluiceOptions parse(String source) {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (String body : annotationBodies(source, "@Option")) {
            if (HELP.matcher(body).find()) {
                continue;
            }
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
            int end = closing(source, start, new ArrayList<>());
            bodies.add(source.substring(start, end));
            at = end;
        }
        return bodies;
    }

    /**
     * The index of the parenthesis that closes one opened just before {@code start} (the end of
     * {@code source} when none does), skipping string literals; the commas between its arguments
     * go into {@code commas}.
     */
    private static int closing(String source, int start, List<Integer> commas) {
        int depth = 1;
        boolean inString = false;
        for (int i = start; i < source.length(); i++) {
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
            } else if (c == ')' && --depth == 0) {
                return i;
            } else if (c == ',' && depth == 1) {
                commas.add(i);
            }
        }
        return source.length();
    }
}
