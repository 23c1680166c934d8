package io.sluice.pulsar.scopes;

import io.sluice.settings.InvalidSettingsException;

import java.util.regex.Pattern;

/**
 * A tenant name, checked with Pulsar's rule for tenants and namespaces: one or more of
 * letters, digits, {@code _ - = : .}.
 *
 * @param value the name, e.g. {@code public}
 */
public record TenantName(String value) {

    /** Pulsar's NamedEntity rule, shared by tenant and namespace parts. */
    static final Pattern PART = Pattern.compile("[-=:.\\w]+");

    /** @throws InvalidSettingsException if the name breaks the rule */
    public TenantName {
        if (value == null || !PART.matcher(value).matches()) {
            throw new InvalidSettingsException(
                    "",
                    "must be a tenant name of letters, digits and _-=:., got "
                            + InvalidSettingsException.quoted(value));
        }
    }

    /** Checks a tenant name. */
    public static TenantName parse(String name) {
        return new TenantName(name);
    }

    @Override
    public String toString() {
        return value;
    }
}
