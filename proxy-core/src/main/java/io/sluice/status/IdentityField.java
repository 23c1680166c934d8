package io.sluice.status;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One field of who a client is, as its front end declares it ({@link io.sluice.limits.ProtocolScopes}):
 * a Kafka client's {@code clientId} and {@code principal}, a Pulsar producer's {@code role} and
 * {@code producerId}. {@code GET /api/v1/throttled}, its OpenAPI schema and the throttle metrics'
 * identity labels follow from the declarations, so the engine names no protocol's fields.
 *
 * @param name the JSON property, in camel case
 * @param type how its values are written
 * @param description what it is, for the OpenAPI document
 * @param metricLabel whether it is a label of {@code sluice_throttle_events_total} (bounded there to
 *     the identities throttled most often): an authenticated identity such as a principal or role,
 *     never an id a client picks per connection
 */
public record IdentityField(String name, Type type, String description, boolean metricLabel) {

    private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9]{0,39}");

    /** How a field's values are written. */
    public enum Type {
        /** A string. */
        TEXT,
        /** A 64-bit integer. */
        INTEGER
    }

    /** @throws IllegalArgumentException when the name is not a short camel-case word */
    public IdentityField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(description, "description");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("identity field name must be camel case, got " + name);
        }
    }

    /** A text field that is not a metric label. */
    public static IdentityField text(String name, String description) {
        return new IdentityField(name, Type.TEXT, description, false);
    }

    /** An integer field (an id a client picks), never a metric label. */
    public static IdentityField integer(String name, String description) {
        return new IdentityField(name, Type.INTEGER, description, false);
    }

    /** An authenticated identity: text, and a label of the throttle metrics. */
    public static IdentityField label(String name, String description) {
        return new IdentityField(name, Type.TEXT, description, true);
    }

    /**
     * This field with {@code value}, or null when {@code value} is null (the field is then left out of
     * {@link ClientIdentity#of}).
     *
     * @throws IllegalArgumentException when the value is not of the field's type
     */
    public ClientIdentity.Value of(Object value) {
        return value == null ? null : new ClientIdentity.Value(this, value);
    }
}
