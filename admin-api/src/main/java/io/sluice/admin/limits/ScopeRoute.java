package io.sluice.admin.limits;

import io.sluice.admin.http.ApiRequest;
import io.sluice.limits.NameParameter;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.settings.InvalidSettingsException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The endpoint of one scope kind's limits, derived from the kind: its path is
 * {@code /api/v1/limits/} and the kind's field in the limits document, then a segment per part of
 * its name ({@code /api/v1/limits/kafka/prefixes/{prefix}}); a name is read from those segments
 * and checked with its kind's rule. Immutable.
 */
public final class ScopeRoute {

    /** Where every scope's endpoint starts. */
    public static final String LIMITS = "/api/v1/limits";

    private final ScopeKind kind;
    private final String path;

    public ScopeRoute(ScopeKind kind) {
        this.kind = kind;
        StringBuilder path = new StringBuilder(LIMITS);
        kind.field().forEach(field -> path.append('/').append(field));
        if (kind.named()) {
            kind.nameTemplate()
                    .parameters()
                    .forEach(parameter ->
                            path.append("/{").append(parameter.name()).append('}'));
        }
        this.path = path.toString();
    }

    /** The route of every kind of {@code catalogue}, in its order. */
    public static List<ScopeRoute> of(ScopeCatalogue catalogue) {
        List<ScopeRoute> routes = new ArrayList<>();
        catalogue.kinds().forEach(kind -> routes.add(new ScopeRoute(kind)));
        return routes;
    }

    /** The kind whose limits this route serves. */
    public ScopeKind kind() {
        return kind;
    }

    /** The route's path, as in OpenAPI: {@code /api/v1/limits/namespaces/{tenant}/{namespace}}. */
    public String path() {
        return path;
    }

    /**
     * The kind's name in OpenAPI's operation ids: {@code Topic}, {@code KafkaPrefix}, {@code Proxy}
     * (its CLI name, each word capitalised).
     */
    public String operationName() {
        StringBuilder name = new StringBuilder();
        for (String word : kind.cliName().split("-")) {
            name.append(word.substring(0, 1).toUpperCase(Locale.ROOT)).append(word.substring(1));
        }
        return name.toString();
    }

    /**
     * The scope the request's path names, checked with its kind's rule and written as the document
     * keeps it ({@link ScopeKind#canonicalName}).
     *
     * @throws InvalidSettingsException naming the path parameter that is wrong
     */
    public ScopeRef scope(ApiRequest request) {
        if (!kind.named()) {
            return new ScopeRef(kind, kind.soleName());
        }
        NameTemplate template = kind.nameTemplate();
        Map<String, String> values = new LinkedHashMap<>();
        for (NameParameter parameter : template.parameters()) {
            String value = request.param(parameter.name());
            if (!parameter.choices().isEmpty() && !parameter.choices().contains(value)) {
                throw new InvalidSettingsException(
                        parameter.name(),
                        "must be " + String.join(" or ", parameter.choices()) + ", got \"" + value + "\"");
            }
            values.put(parameter.name(), value);
        }
        String name;
        try {
            name = kind.canonicalName(template.join(values));
        } catch (InvalidSettingsException e) {
            List<NameParameter> parameters = template.parameters();
            throw e.under(parameters.get(parameters.size() - 1).name());
        }
        return new ScopeRef(kind, name);
    }

    /**
     * The scope for messages: {@code namespace public/default}, {@code kafka prefix team-a.} (the
     * sections the kind's field is in, its label and the name), {@code the proxy}.
     */
    public String describe(String name) {
        if (!kind.named()) {
            return "the " + kind.label();
        }
        List<String> field = kind.field();
        StringBuilder text = new StringBuilder();
        field.subList(0, field.size() - 1)
                .forEach(section -> text.append(section).append(' '));
        return text.append(kind.label()).append(' ').append(name).toString();
    }
}
