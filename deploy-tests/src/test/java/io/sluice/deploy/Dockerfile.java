package io.sluice.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile read into its instructions, as far as the tests need: line continuations joined,
 * comments dropped, every instruction tagged with the build stage it belongs to, build arguments
 * resolved to their defaults and stages followed to the stages they are built {@code FROM}. It
 * needs no Docker engine, so the image's contract is checked in every build (container-tests
 * builds and runs the image where an engine runs).
 */
final class Dockerfile {

    record Instruction(int stage, String keyword, String arguments) {}

    /**
     * A build stage. {@code from} is its FROM argument as written, {@code image} the same with the
     * global build arguments' defaults substituted: an image name, or the name of an earlier stage.
     */
    record Stage(int index, String from, String image, String name) {}

    private static final Pattern ARG_REFERENCE =
            Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}|\\$([A-Za-z_][A-Za-z0-9_]*)");

    private final List<Instruction> instructions;
    private final List<Stage> stages;
    private final Map<String, String> globalArgs;

    private Dockerfile(List<Instruction> instructions, List<Stage> stages, Map<String, String> globalArgs) {
        this.instructions = instructions;
        this.stages = stages;
        this.globalArgs = globalArgs;
    }

    static Dockerfile load() {
        return parse(Repo.read("Dockerfile"));
    }

    static Dockerfile parse(String text) {
        List<String> logical = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\\R")) {
            String trimmed = line.strip();
            // Comments and empty lines may sit between continuation lines too; Docker skips them there as well.
            if (trimmed.startsWith("#") || trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.endsWith("\\")) {
                current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                continue;
            }
            current.append(trimmed);
            logical.add(current.toString().strip());
            current.setLength(0);
        }
        if (current.length() > 0) {
            logical.add(current.toString().strip());
        }

        List<Instruction> instructions = new ArrayList<>();
        List<Stage> stages = new ArrayList<>();
        Map<String, String> globalArgs = new LinkedHashMap<>();
        for (String line : logical) {
            String[] parts = line.split("\\s+", 2);
            String keyword = parts[0].toUpperCase(Locale.ROOT);
            String arguments = parts.length > 1 ? parts[1].strip() : "";
            if (keyword.equals("ARG") && stages.isEmpty()) {
                globalArgs.putAll(argDefaults(arguments));
            }
            if (keyword.equals("FROM")) {
                String[] from = arguments.split("\\s+");
                String name =
                        from.length >= 3 && from[from.length - 2].equalsIgnoreCase("AS") ? from[from.length - 1] : null;
                String image = from[0].startsWith("--") && from.length > 1 ? from[1] : from[0];
                stages.add(new Stage(stages.size(), image, substitute(image, globalArgs), name));
            }
            instructions.add(new Instruction(stages.size() - 1, keyword, arguments));
        }
        return new Dockerfile(List.copyOf(instructions), List.copyOf(stages), Map.copyOf(globalArgs));
    }

    /** The build arguments declared before the first FROM, with their defaults ("" when none). */
    Map<String, String> globalArgs() {
        return globalArgs;
    }

    /** The defaults of the ARGs a stage declares itself. */
    Map<String, String> args(Stage stage) {
        Map<String, String> args = new LinkedHashMap<>();
        for (Instruction arg : in(stage, "ARG")) {
            args.putAll(argDefaults(arg.arguments()));
        }
        return args;
    }

    /** {@code ${NAME}} and {@code $NAME} replaced by the values given; unknown names are left as they are. */
    static String substitute(String text, Map<String, String> values) {
        Matcher m = ARG_REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            m.appendReplacement(out, Matcher.quoteReplacement(values.getOrDefault(name, m.group())));
        }
        return m.appendTail(out).toString();
    }

    private static Map<String, String> argDefaults(String arguments) {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (String word : words(arguments)) {
            int eq = word.indexOf('=');
            defaults.put(eq < 0 ? word : word.substring(0, eq), eq < 0 ? "" : word.substring(eq + 1));
        }
        return defaults;
    }

    List<Stage> stages() {
        return stages;
    }

    Stage finalStage() {
        return stages.get(stages.size() - 1);
    }

    Stage stage(String nameOrIndex) {
        for (Stage stage : stages) {
            if (nameOrIndex.equals(stage.name()) || nameOrIndex.equals(String.valueOf(stage.index()))) {
                return stage;
            }
        }
        throw new AssertionError("no build stage " + nameOrIndex);
    }

    /** The instructions of one stage itself. */
    List<Instruction> in(Stage stage, String keyword) {
        return instructions.stream()
                .filter(i -> i.stage() == stage.index() && i.keyword().equals(keyword))
                .toList();
    }

    /**
     * The stages a stage is built on, outermost first, ending with the stage itself: a stage
     * {@code FROM} an earlier stage inherits its files and its settings (ENV, USER, ENTRYPOINT...).
     */
    List<Stage> lineage(Stage stage) {
        List<Stage> chain = new ArrayList<>();
        for (Stage s = stage; s != null; s = parent(s)) {
            chain.add(0, s);
        }
        return chain;
    }

    /** The image a stage is ultimately built on, once stage names are followed. */
    String baseImage(Stage stage) {
        return lineage(stage).get(0).image();
    }

    /** The instructions that made a stage's image: those of its lineage, in order. */
    List<Instruction> inherited(Stage stage, String keyword) {
        List<Instruction> all = new ArrayList<>();
        for (Stage s : lineage(stage)) {
            all.addAll(in(s, keyword));
        }
        return all;
    }

    private Stage parent(Stage stage) {
        for (Stage earlier : stages.subList(0, stage.index())) {
            if (stage.image().equals(earlier.name())) {
                return earlier;
            }
        }
        return null;
    }

    /** The working directory in effect at the end of a stage (the last absolute WORKDIR). */
    String workdir(Stage stage) {
        String dir = "/";
        for (Instruction workdir : inherited(stage, "WORKDIR")) {
            String path = workdir.arguments();
            dir = path.startsWith("/") ? path : (dir.endsWith("/") ? dir : dir + "/") + path;
        }
        return dir;
    }

    /** Every ENV of a stage and its lineage, in order; both {@code ENV k=v k2="v 2"} and the old {@code ENV k v}. */
    Map<String, String> env(Stage stage) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Instruction instruction : inherited(stage, "ENV")) {
            List<String> words = words(instruction.arguments());
            if (!words.isEmpty() && !words.get(0).contains("=")) {
                String[] legacy = instruction.arguments().split("\\s+", 2);
                env.put(legacy[0], legacy.length > 1 ? legacy[1] : "");
                continue;
            }
            for (String word : words) {
                int eq = word.indexOf('=');
                if (eq <= 0) {
                    throw new AssertionError("ENV word without '=': " + word);
                }
                env.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return env;
    }

    /**
     * Splits shell-like words: whitespace separates, double and single quotes group, a backslash
     * escapes the next character. Quotes are removed.
     */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < text.length()) {
                word.append(text.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new AssertionError("unbalanced quote in: " + text);
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    /** The user a stage ends with ({@code USER name[:group]}, its own or inherited), or null when none is set (root). */
    String user(Stage stage) {
        List<Instruction> users = inherited(stage, "USER");
        return users.isEmpty() ? null : users.get(users.size() - 1).arguments().split(":")[0];
    }
}
