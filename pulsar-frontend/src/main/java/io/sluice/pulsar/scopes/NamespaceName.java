package io.sluice.pulsar.scopes;

import io.sluice.settings.InvalidSettingsException;

/**
 * A namespace name {@code tenant/namespace}, each part following Pulsar's rule (see {@link TenantName}).
 *
 * @param tenant the tenant part
 * @param localName the namespace part after the slash
 */
public record NamespaceName(String tenant, String localName) {

    /** @throws InvalidSettingsException if either part breaks the rule */
    public NamespaceName {
        if (tenant == null
                || localName == null
                || !TenantName.PART.matcher(tenant).matches()
                || !TenantName.PART.matcher(localName).matches()) {
            throw invalid(tenant + "/" + localName);
        }
    }

    /**
     * Parses {@code tenant/namespace}.
     *
     * @throws InvalidSettingsException if the name does not have that form
     */
    public static NamespaceName parse(String name) {
        int slash = name == null ? -1 : name.indexOf('/');
        if (slash < 0) {
            throw invalid(name);
        }
        try {
            return new NamespaceName(name.substring(0, slash), name.substring(slash + 1));
        } catch (InvalidSettingsException e) {
            throw invalid(name);
        }
    }

    @Override
    public String toString() {
        return tenant + "/" + localName;
    }

    private static InvalidSettingsException invalid(String name) {
        return new InvalidSettingsException(
                "", "must be a namespace name tenant/namespace, got " + InvalidSettingsException.quoted(name));
    }
}
