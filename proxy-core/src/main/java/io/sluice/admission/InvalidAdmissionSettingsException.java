package io.sluice.admission;

/**
 * Admission settings that break a rule. The message names the field first, e.g.
 * {@code thresholds.cpu: must be greater than 0 and at most 1, got 1.5}, so a REST layer or the
 * config loader can show it as is.
 */
public final class InvalidAdmissionSettingsException extends IllegalArgumentException {

    private final String field;
    private final String problem;

    /**
     * @param field the JSON field, e.g. {@code thresholds.cpu}; empty for the document as a whole
     * @param problem what is wrong, e.g. {@code must be at least 1, got 0}
     */
    public InvalidAdmissionSettingsException(String field, String problem) {
        this(field, problem, null);
    }

    /** As {@link #InvalidAdmissionSettingsException(String, String)}, keeping the parser's exception for the log. */
    public InvalidAdmissionSettingsException(String field, String problem, Throwable cause) {
        super(field.isEmpty() ? problem : field + ": " + problem, cause);
        this.field = field;
        this.problem = problem;
    }

    /** The JSON field at fault, empty for the document as a whole. */
    public String field() {
        return field;
    }

    /** What is wrong, without the field. */
    public String problem() {
        return problem;
    }
}
