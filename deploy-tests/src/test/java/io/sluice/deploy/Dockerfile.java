package io.sluice.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Dockerfile read into its instructions, as far as the tests need: line continuations joined,
 * comments dropped, every instruction tagged with the build stage it belongs to. No Docker engine
 * is needed (none runs here), so this is how the image's contract is checked.
 */
final class Dockerfile {

    record Instruction(int stage, String keyword, String arguments) {
    }

    record Stage(int index, String image, String name) {
    }

    private final List<Instruction> instructions;
    private final List<Stage> stages;

    private Dockerfile(List<Instruction> instructions, List<Stage> stages) {
        this.instructions = instructions;
        this.stages = stages;
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
        for (String line : logical) {
            String[] parts = line.split("\\s+", 2);
            String keyword = parts[0].toUpperCase(Locale.ROOT);
            String arguments = parts.length > 1 ? parts[1].strip() : "";
            if (keyword.equals("FROM")) {
                String[] from = arguments.split("\\s+");
                String name = from.length >= 3 && from[from.length - 2].equalsIgnoreCase("AS") ? from[from.length - 1] : null;
                String image = from[0].startsWith("--") && from.length > 1 ? from[1] : from[0];
                stages.add(new Stage(stages.size(), image, name));
            }
            instructions.add(new Instruction(stages.size() - 1, keyword, arguments));
        }
        return new Dockerfile(List.copyOf(instructions), List.copyOf(stages));
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

    List<Instruction> in(Stage stage, String keyword) {
        return instructions.stream()
                .filter(i -> i.stage() == stage.index() && i.keyword().equals(keyword))
                .toList();
    }

    /** The working directory in effect at the end of a stage (the last absolute WORKDIR). */
    String workdir(Stage stage) {
        String dir = "/";
        for (Instruction workdir : in(stage, "WORKDIR")) {
            String path = workdir.arguments();
            dir = path.startsWith("/") ? path : (dir.endsWith("/") ? dir : dir + "/") + path;
        }
        return dir;
    }

    /** Every ENV of a stage, in order; both {@code ENV k=v k2="v 2"} and the old {@code ENV k v}. */
    Map<String, String> env(Stage stage) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Instruction instruction : in(stage, "ENV")) {
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

    /** The user a stage ends with ({@code USER name[:group]}), or null when it sets none (root). */
    String user(Stage stage) {
        List<Instruction> users = in(stage, "USER");
        return users.isEmpty() ? null : users.get(users.size() - 1).arguments().split(":")[0];
    }
}
