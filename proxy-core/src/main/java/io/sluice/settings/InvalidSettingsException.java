package io.sluice.settings;

/**
 * A setting that breaks a rule: a limits document, a limit or scope name, admission settings, a
 * command-line option. The message names the field path first, e.g.
 * {@code topics["persistent://a/b/c"].publish.messagesPerSecond: must be a positive finite number, got -1},
 * so that the REST layer and the command line can pass it to the user as is.
 */
public final class InvalidSettingsException extends IllegalArgumentException {

    private final String path;
    private final String problem;

    /**
     * @param path where the problem is, e.g. {@code publish.messagesPerSecond}; empty for the whole value
     * @param problem what is wrong, e.g. {@code must be a positive finite number, got -1}
     */
    public InvalidSettingsException(String path, String problem) {
        this(path, problem, null);
    }

    /** As {@link #InvalidSettingsException(String, String)}, keeping the parser's exception for the log. */
    public InvalidSettingsException(String path, String problem, Throwable cause) {
        super(path.isEmpty() ? problem : path + ": " + problem, cause);
        this.path = path;
        this.problem = problem;
    }

    /** The field path, empty when the problem is with the value as a whole. */
    public String path() {
        return path;
    }

    /** What is wrong, without the path. */
    public String problem() {
        return problem;
    }

    /**
     * The same problem seen from an enclosing value: {@code under("publish")} turns path
     * {@code messagesPerSecond} into {@code publish.messagesPerSecond}.
     */
    public InvalidSettingsException under(String prefix) {
        if (prefix.isEmpty()) {
            return this;
        }
        if (path.isEmpty()) {
            return new InvalidSettingsException(prefix, problem, this);
        }
        return new InvalidSettingsException(prefix + (path.startsWith("[") ? "" : ".") + path, problem, this);
    }

    /** A number as a user typed it: {@code -1} rather than {@code -1.0}. */
    public static String show(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    /** A name as it appears in JSON: {@code "public/default"}, or {@code null}. */
    public static String quoted(String text) {
        return text == null ? "null" : '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
