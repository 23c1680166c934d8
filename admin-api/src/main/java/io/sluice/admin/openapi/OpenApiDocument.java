package io.sluice.admin.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.admin.limits.ScopeRoute;
import io.sluice.limits.DocumentField;
import io.sluice.limits.NameParameter;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeCatalogue;
import io.sluice.limits.ScopeKind;
import io.sluice.status.IdentityField;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The OpenAPI 3 document of the admin API for one scope catalogue: {@code openapi.json} (a
 * resource next to this class) describes the routes every Sluice has, and each scope kind adds
 * its route ({@code GET PUT DELETE}, after {@code /api/v1/limits}), the parameters of its path,
 * its field in the {@code LimitsDocument} schema (a section, such as {@code kafka}, gets a schema
 * of its own, {@code KafkaLimits}), its label to the values of {@code ClusterShare}'s {@code scope},
 * and its protocol to every {@code protocol} property's values; each front end's identity fields
 * are properties of {@code ThrottledClient}.
 * {@code OpenApiDocumentTest} keeps the document and the route table in step.
 */
public final class OpenApiDocument {

    /** The resource's name, relative to this class: the routes every Sluice has. */
    public static final String BASE = "openapi.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COMPONENTS = "#/components/";

    /** The status of each of the base document's responses that a scope's route answers. */
    private static final Map<String, String> STATUS = Map.of(
            "BadRequest", "400",
            "Unauthorized", "401",
            "NoLimit", "404",
            "PayloadTooLarge", "413",
            "UnsupportedMediaType", "415",
            "PersistFailed", "500",
            "LimitsStoreUnavailable", "503");

    private OpenApiDocument() {}

    /** The document for {@code catalogue}, as served. */
    public static byte[] of(ScopeCatalogue catalogue) {
        try {
            return JSON.writer(SerializationFeature.INDENT_OUTPUT).writeValueAsBytes(tree(catalogue));
        } catch (JsonProcessingException e) {
            // A tree of JSON nodes always writes.
            throw new UncheckedIOException(e);
        }
    }

    /** The document for {@code catalogue}, as a tree. */
    public static ObjectNode tree(ScopeCatalogue catalogue) {
        ObjectNode document = base();
        ObjectNode components = document.withObject("components");
        ObjectNode parameters = components.withObject("parameters");
        ObjectNode paths = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        document.withObject("paths").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> path = it.next();
            paths.set(path.getKey(), path.getValue());
            if (path.getKey().equals(ScopeRoute.LIMITS)) {
                for (ScopeRoute route : ScopeRoute.of(catalogue)) {
                    paths.set(route.path(), routeItem(route, parameters));
                }
            }
        }
        document.set("paths", paths);
        ObjectNode schemas = components.withObject("schemas");
        schemas.set(
                "LimitsDocument",
                section(
                        catalogue.document(),
                        "Every limit; the content of the limits file. Which scopes it holds"
                                + " and where: GET /api/v1/scopes.",
                        schemas));
        identityProperties(schemas.withObject("ThrottledClient"), catalogue.identityFields());
        ArrayNode kinds = JSON.createArrayNode();
        catalogue.kinds().stream().map(ScopeKind::label).distinct().forEach(kinds::add);
        enumerate(schemas.path("ClusterShare"), "scope", kinds);
        ArrayNode protocols = JSON.createArrayNode();
        catalogue.protocols().forEach(protocols::add);
        ArrayNode actions = JSON.createArrayNode();
        OnExceed.jsonNames().forEach(actions::add);
        schemas.forEach(schema -> {
            enumerate(schema, "protocol", protocols);
            // A limit's action and a throttle's: one list, the model's.
            enumerate(schema, "onExceed", actions);
            enumerate(schema, "action", actions);
        });
        return document;
    }

    /** The identity fields the front ends declare, as properties of {@code schema} after its {@code connection}. */
    private static void identityProperties(ObjectNode schema, List<IdentityField> fields) {
        ObjectNode properties = JSON.createObjectNode();
        schema.withObject("properties").fields().forEachRemaining(property -> {
            properties.set(property.getKey(), property.getValue());
            if (property.getKey().equals("connection")) {
                for (IdentityField field : fields) {
                    ObjectNode value = properties.putObject(field.name());
                    switch (field.type()) {
                        case TEXT -> value.put("type", "string");
                        case INTEGER -> value.put("type", "integer").put("format", "int64");
                    }
                    value.put("description", field.description());
                }
            }
        });
        schema.set("properties", properties);
    }

    private static void enumerate(JsonNode schema, String propertyName, ArrayNode values) {
        if (schema.path("properties").path(propertyName) instanceof ObjectNode property) {
            property.set("enum", values.deepCopy());
        }
    }

    private static ObjectNode base() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(BASE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + BASE + " is missing from the admin-api jar");
            }
            return (ObjectNode) JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode routeItem(ScopeRoute route, ObjectNode components) {
        ScopeKind kind = route.kind();
        ArrayNode parameters = JSON.createArrayNode();
        if (kind.named()) {
            for (NameParameter parameter : kind.nameTemplate().parameters()) {
                parameters.addObject().put("$ref", COMPONENTS + "parameters/" + parameter(kind, parameter, components));
            }
        }
        String what = kind.description();
        ObjectNode item = JSON.createObjectNode();
        ObjectNode get = operation(item, "get", "The limit of " + what, route, parameters);
        get.withObject("responses").set("200", limitResponse("The limit of " + what));
        responses(get, "BadRequest", "Unauthorized", "NoLimit");
        ObjectNode put = operation(
                item,
                "put",
                "Set the limit of " + what + "; answers once it is persisted and in force",
                route,
                parameters);
        put.withObject("requestBody").put("required", true).set("content", limitContent());
        put.withObject("responses").set("200", limitResponse("The limit as stored, defaults filled in"));
        responses(
                put,
                "BadRequest",
                "Unauthorized",
                "PayloadTooLarge",
                "UnsupportedMediaType",
                "PersistFailed",
                "LimitsStoreUnavailable");
        ObjectNode delete = operation(
                item,
                "delete",
                "Remove the limit of " + what + "; answers once it is persisted and in force",
                route,
                parameters);
        delete.withObject("responses").withObject("204").put("description", "Removed");
        responses(delete, "BadRequest", "Unauthorized", "NoLimit", "PersistFailed", "LimitsStoreUnavailable");
        return item;
    }

    private static ObjectNode operation(
            ObjectNode item, String method, String summary, ScopeRoute route, ArrayNode parameters) {
        ObjectNode operation = item.putObject(method);
        operation.put("summary", summary);
        operation.put("operationId", method + route.operationName() + "Limit");
        operation.putArray("tags").add("limits");
        if (!parameters.isEmpty()) {
            operation.set("parameters", parameters.deepCopy());
        }
        return operation;
    }

    private static void responses(ObjectNode operation, String... names) {
        ObjectNode responses = operation.withObject("responses");
        for (String name : names) {
            responses.putObject(STATUS.get(name)).put("$ref", COMPONENTS + "responses/" + name);
        }
    }

    private static ObjectNode limitResponse(String description) {
        ObjectNode response = JSON.createObjectNode();
        response.put("description", description);
        response.set("content", limitContent());
        return response;
    }

    private static ObjectNode limitContent() {
        ObjectNode content = JSON.createObjectNode();
        content.withObject("application/json").withObject("schema").put("$ref", COMPONENTS + "schemas/Limit");
        return content;
    }

    /**
     * Declares {@code parameter} of {@code kind} among the components, named by the sections of
     * the kind's field and the parameter's name ({@code kafkaClientId}); returns that name.
     *
     * @throws IllegalStateException when two kinds declare one name differently
     */
    private static String parameter(ScopeKind kind, NameParameter parameter, ObjectNode components) {
        List<String> sections = kind.field().subList(0, kind.field().size() - 1);
        String name = camel(sections, parameter.name());
        ObjectNode declared = JSON.createObjectNode();
        declared.put("name", parameter.name()).put("in", "path").put("required", true);
        if (parameter.description() != null) {
            declared.put("description", parameter.description());
        }
        ObjectNode schema = declared.putObject("schema").put("type", "string");
        if (!parameter.choices().isEmpty()) {
            ArrayNode choices = schema.putArray("enum");
            parameter.choices().forEach(choices::add);
        }
        if (parameter.pattern() != null) {
            schema.put("pattern", parameter.pattern());
        }
        if (parameter.maxLength() > 0) {
            schema.put("minLength", 1).put("maxLength", parameter.maxLength());
        }
        JsonNode existing = components.get(name);
        if (existing != null && !existing.equals(declared)) {
            throw new IllegalStateException("path parameter " + name + " is declared twice, differently: " + existing
                    + " and " + declared + " (" + kind + ")");
        }
        components.set(name, declared);
        return name;
    }

    private static ObjectNode section(DocumentField.Section section, String description, ObjectNode schemas) {
        ObjectNode schema = JSON.createObjectNode();
        schema.put("type", "object").put("additionalProperties", false).put("description", description);
        ObjectNode properties = schema.putObject("properties");
        for (DocumentField field : section.fields()) {
            if (field instanceof DocumentField.Kind kind) {
                properties.set(field.name(), kindField(kind.kind()));
            } else if (field instanceof DocumentField.Connection) {
                properties.putObject(field.name()).put("$ref", COMPONENTS + "schemas/ConnectionLimits");
            } else {
                String name = capitalised(field.name()) + "Limits";
                schemas.set(
                        name,
                        section(
                                (DocumentField.Section) field,
                                "The " + field.name() + " section of the limits document",
                                schemas));
                properties.putObject(field.name()).put("$ref", COMPONENTS + "schemas/" + name);
            }
        }
        return schema;
    }

    private static ObjectNode kindField(ScopeKind kind) {
        ObjectNode property = JSON.createObjectNode();
        if (!kind.named()) {
            property.putArray("allOf").addObject().put("$ref", COMPONENTS + "schemas/Limit");
            property.put("nullable", true);
            return property;
        }
        property.put("type", "object");
        property.putObject("additionalProperties").put("$ref", COMPONENTS + "schemas/Limit");
        property.put("description", "The limit of " + kind.description() + ", by name, e.g. " + kind.example());
        return property;
    }

    /** {@code [kafka], clientId} as {@code kafkaClientId}. */
    private static String camel(List<String> words, String last) {
        StringBuilder name = new StringBuilder();
        for (String word : words) {
            name.append(name.length() == 0 ? word : capitalised(word));
        }
        return name.append(name.length() == 0 ? last : capitalised(last)).toString();
    }

    private static String capitalised(String word) {
        return word.substring(0, 1).toUpperCase(Locale.ROOT) + word.substring(1);
    }
}
