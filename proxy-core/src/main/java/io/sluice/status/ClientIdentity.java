package io.sluice.status;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Who a throttled client is, in its front end's {@linkplain IdentityField declared fields}: the
 * values it has, in the order its front end declared them; a field without a value is left out.
 * Made when a throttle starts, never per message.
 *
 * @param values each field that has a value, with it
 */
public record ClientIdentity(List<Value> values) {

    /** A client with no identity fields. */
    public static final ClientIdentity NONE = new ClientIdentity(List.of());

    /**
     * One field's value.
     *
     * @param field the declared field
     * @param value a {@link String} for a {@link IdentityField.Type#TEXT} field, a {@link Long} for an
     *     {@link IdentityField.Type#INTEGER} one
     */
    public record Value(IdentityField field, Object value) {

        /** @throws IllegalArgumentException when the value is not of the field's type */
        public Value {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(value, "value");
            boolean fits = switch (field.type()) {
                case TEXT -> value instanceof String;
                case INTEGER -> value instanceof Long;
            };
            if (!fits) {
                throw new IllegalArgumentException(
                        "identity field " + field.name() + " is " + field.type() + ", got " + value.getClass());
            }
        }
    }

    public ClientIdentity {
        values = List.copyOf(values);
    }

    /**
     * The identity of these values, in this order; a null value (a field without one, {@link
     * IdentityField#of}) is left out.
     *
     * @throws IllegalArgumentException when a field is given twice
     */
    public static ClientIdentity of(Value... values) {
        List<Value> present = new ArrayList<>(values.length);
        for (Value value : values) {
            if (value == null) {
                continue;
            }
            if (present.stream()
                    .anyMatch(v -> v.field().name().equals(value.field().name()))) {
                throw new IllegalArgumentException(
                        "identity field " + value.field().name() + " given twice");
            }
            present.add(value);
        }
        return new ClientIdentity(present);
    }

    /** The value of the field named {@code name}, or null when it has none. */
    public Object get(String name) {
        for (Value value : values) {
            if (value.field().name().equals(name)) {
                return value.value();
            }
        }
        return null;
    }

    /** {@code {clientId=billing, principal=User:alice}}: each field's name and value, in order. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        for (Value value : values) {
            text.append(text.length() > 1 ? ", " : "")
                    .append(value.field().name())
                    .append('=')
                    .append(value.value());
        }
        return text.append('}').toString();
    }

    /** Only the values of fields that are metric labels. */
    public ClientIdentity metricLabels() {
        return values.stream().allMatch(v -> v.field().metricLabel())
                ? this
                : new ClientIdentity(
                        values.stream().filter(v -> v.field().metricLabel()).toList());
    }
}
