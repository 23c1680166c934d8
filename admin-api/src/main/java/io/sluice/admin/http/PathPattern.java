package io.sluice.admin.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A route's path, written as in OpenAPI: literal segments and {@code {name}} parameters, e.g.
 * {@code /api/v1/limits/tenants/{tenant}}. A parameter matches exactly one non-empty segment.
 */
public final class PathPattern {

    private final String template;
    private final List<String> segments;

    private PathPattern(String template, List<String> segments) {
        this.template = template;
        this.segments = segments;
    }

    /** @throws IllegalArgumentException when {@code template} is not an absolute path of segments */
    public static PathPattern of(String template) {
        if (!template.startsWith("/")) {
            throw new IllegalArgumentException("a path pattern starts with /: " + template);
        }
        List<String> segments = new ArrayList<>(List.of(template.substring(1).split("/", -1)));
        for (String segment : segments) {
            if (segment.isEmpty() || (parameter(segment) == null && (segment.contains("{") || segment.contains("}")))) {
                throw new IllegalArgumentException("bad segment '" + segment + "' in path pattern " + template);
            }
        }
        return new PathPattern(template, List.copyOf(segments));
    }

    /** The pattern as written, e.g. {@code /api/v1/limits/tenants/{tenant}}. */
    public String template() {
        return template;
    }

    /** The parameters of {@code path} by name, or {@code null} when it does not match. */
    public Map<String, String> match(RequestPath path) {
        List<String> actual = path.segments();
        if (actual.size() != segments.size()) {
            return null;
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < segments.size(); i++) {
            String expected = segments.get(i);
            String name = parameter(expected);
            if (name == null) {
                if (!expected.equals(actual.get(i))) {
                    return null;
                }
            } else if (actual.get(i).isEmpty()) {
                return null;
            } else {
                params.put(name, actual.get(i));
            }
        }
        return params;
    }

    @Override
    public String toString() {
        return template;
    }

    private static String parameter(String segment) {
        if (segment.length() > 2 && segment.startsWith("{") && segment.endsWith("}")) {
            String name = segment.substring(1, segment.length() - 1);
            return name.contains("{") || name.contains("}") ? null : name;
        }
        return null;
    }
}
