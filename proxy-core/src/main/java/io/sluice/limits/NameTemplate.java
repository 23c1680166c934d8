package io.sluice.limits;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a scope name is written from the parts a REST path carries: {@code {tenant}/{namespace}}
 * joins {@code tenant=public, namespace=default} into {@code public/default}, and splits it back.
 * Parameters are written {@code {name}}; between two of them there is always some literal text,
 * so that a name splits one way only. Immutable.
 */
public final class NameTemplate {

    private final String template;
    /** The text before each parameter, and after the last one: one more than there are parameters. */
    private final List<String> literals;

    private final List<NameParameter> parameters;

    private NameTemplate(String template, List<String> literals, List<NameParameter> parameters) {
        this.template = template;
        this.literals = List.copyOf(literals);
        this.parameters = List.copyOf(parameters);
    }

    /**
     * @param template e.g. {@code {domain}://{tenant}/{namespace}/{topic}}
     * @param parameters one per parameter of the template, in the template's order
     * @throws IllegalArgumentException when the template and the parameters do not agree
     */
    public static NameTemplate of(String template, NameParameter... parameters) {
        Objects.requireNonNull(template, "template");
        List<String> literals = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int at = 0;
        while (true) {
            int open = template.indexOf('{', at);
            String literal = template.substring(at, open < 0 ? template.length() : open);
            if (literal.indexOf('}') >= 0) {
                throw new IllegalArgumentException("unbalanced } in name template " + template);
            }
            if (!names.isEmpty() && open >= 0 && literal.isEmpty()) {
                throw new IllegalArgumentException("two parameters with nothing between them in " + template);
            }
            literals.add(literal);
            if (open < 0) {
                break;
            }
            int close = template.indexOf('}', open);
            if (close < 0
                    || close == open + 1
                    || template.substring(open + 1, close).indexOf('{') >= 0) {
                throw new IllegalArgumentException("bad parameter in name template " + template);
            }
            names.add(template.substring(open + 1, close));
            at = close + 1;
        }
        List<String> declared = new ArrayList<>();
        for (NameParameter parameter : parameters) {
            declared.add(parameter.name());
        }
        if (names.isEmpty() || !names.equals(declared)) {
            throw new IllegalArgumentException(
                    "name template " + template + " has parameters " + names + ", declared " + declared);
        }
        return new NameTemplate(template, literals, List.of(parameters));
    }

    /**
     * A template whose parameters say nothing but their names, for a client that knows only the
     * template's text (the CLI, from {@code GET /api/v1/scopes}).
     *
     * @throws IllegalArgumentException when {@code template} is not a name template
     */
    public static NameTemplate parse(String template) {
        List<NameParameter> parameters = new ArrayList<>();
        int open = template.indexOf('{');
        while (open >= 0) {
            int close = template.indexOf('}', open);
            if (close < 0) {
                break;
            }
            parameters.add(NameParameter.of(template.substring(open + 1, close)));
            open = template.indexOf('{', close);
        }
        return of(template, parameters.toArray(NameParameter[]::new));
    }

    /** As written: {@code {tenant}/{namespace}}. */
    public String template() {
        return template;
    }

    /** Without the braces, for people: {@code tenant/namespace}. */
    public String form() {
        return template.replace("{", "").replace("}", "");
    }

    /** The parameters, in the template's order. */
    public List<NameParameter> parameters() {
        return parameters;
    }

    /**
     * The name of these parameter values.
     *
     * @throws IllegalArgumentException when a parameter has no value
     */
    public String join(Map<String, String> values) {
        StringBuilder name = new StringBuilder(literals.get(0));
        for (int i = 0; i < parameters.size(); i++) {
            String value = values.get(parameters.get(i).name());
            if (value == null) {
                throw new IllegalArgumentException(
                        "no value for " + parameters.get(i).name());
            }
            name.append(value).append(literals.get(i + 1));
        }
        return name.toString();
    }

    /**
     * The parameter values of {@code name}, in the template's order, or {@code null} when the name
     * does not have this form: it lacks the literal text, or a value would hold some of it
     * ({@code a/b/c} is no {@code {tenant}/{namespace}}). Values may be empty.
     */
    public Map<String, String> split(String name) {
        if (!name.startsWith(literals.get(0))) {
            return null;
        }
        Map<String, String> values = new LinkedHashMap<>();
        int at = literals.get(0).length();
        int last = parameters.size() - 1;
        for (int i = 0; i <= last; i++) {
            String after = literals.get(i + 1);
            int end;
            if (i == last) {
                end = name.length() - after.length();
                if (end < at || !name.endsWith(after)) {
                    return null;
                }
            } else {
                end = name.indexOf(after, at);
                if (end < 0) {
                    return null;
                }
            }
            String value = name.substring(at, end);
            for (String literal : literals) {
                if (!literal.isEmpty() && value.contains(literal)) {
                    return null;
                }
            }
            values.put(parameters.get(i).name(), value);
            at = end + after.length();
        }
        return values;
    }

    @Override
    public String toString() {
        return template;
    }
}
