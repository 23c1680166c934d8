package io.sluice.limits;

import java.util.List;
import java.util.Objects;

/**
 * One part of a scope name as a REST path carries it, e.g. the {@code tenant} of
 * {@code /api/v1/limits/namespaces/{tenant}/{namespace}}: what the OpenAPI document says about it
 * and, when it has {@link #choices()}, the only values it may take.
 *
 * @param name the parameter's name in the template
 * @param description for people, or {@code null}
 * @param choices the values it may take, checked before the name's rule; empty for any
 * @param pattern a regular expression the OpenAPI document gives, or {@code null}
 * @param maxLength the longest value the OpenAPI document gives, or 0 for none
 */
public record NameParameter(String name, String description, List<String> choices, String pattern, int maxLength) {

    public NameParameter {
        Objects.requireNonNull(name, "name");
        choices = List.copyOf(choices);
        if (maxLength < 0) {
            throw new IllegalArgumentException("maxLength must not be negative, got " + maxLength);
        }
    }

    /** A parameter that takes any value and says nothing more. */
    public static NameParameter of(String name) {
        return new NameParameter(name, null, List.of(), null, 0);
    }

    /** This parameter, described. */
    public NameParameter described(String text) {
        return new NameParameter(name, text, choices, pattern, maxLength);
    }

    /** This parameter, taking only these values. */
    public NameParameter oneOf(String... values) {
        return new NameParameter(name, description, List.of(values), pattern, maxLength);
    }

    /** This parameter, documented as matching {@code regex}. */
    public NameParameter matching(String regex) {
        return new NameParameter(name, description, choices, regex, maxLength);
    }

    /** This parameter, documented as at most {@code length} characters. */
    public NameParameter atMost(int length) {
        return new NameParameter(name, description, choices, pattern, length);
    }
}
