package io.sluice.pulsar.scopes;

import io.sluice.settings.InvalidSettingsException;

/**
 * A fully qualified topic name, {@code persistent://tenant/namespace/topic} or
 * {@code non-persistent://tenant/namespace/topic}, with Pulsar's partition convention: a local
 * name ending in {@code -partition-N} is partition N of the partitioned topic without that suffix.
 *
 * @param persistent true for {@code persistent://}, false for {@code non-persistent://}
 * @param tenant the tenant part
 * @param namespace the namespace part (without the tenant)
 * @param localName the part after the namespace, including any partition suffix
 * @param partitionIndex the partition number, or -1 when this is not a partition
 */
public record TopicName(boolean persistent, String tenant, String namespace, String localName, int partitionIndex) {

    private static final String PERSISTENT = "persistent://";
    private static final String NON_PERSISTENT = "non-persistent://";
    private static final String PARTITION_SUFFIX = "-partition-";

    /** @throws InvalidSettingsException if a part breaks the rules or the partition index does not match the name */
    public TopicName {
        if (tenant == null
                || namespace == null
                || localName == null
                || !TenantName.PART.matcher(tenant).matches()
                || !TenantName.PART.matcher(namespace).matches()
                || localName.isBlank()
                || localName.indexOf('/') >= 0
                || localName.chars().anyMatch(Character::isISOControl)
                || partitionIndex != partitionIndexOf(localName)) {
            throw invalid((persistent ? PERSISTENT : NON_PERSISTENT) + tenant + "/" + namespace + "/" + localName);
        }
    }

    /**
     * Parses a fully qualified topic name.
     *
     * @throws InvalidSettingsException if the name does not have the form {@code domain://tenant/namespace/topic}
     *     with a valid tenant and namespace and a non-empty topic part without {@code /}
     */
    public static TopicName parse(String name) {
        boolean persistent = name != null && name.startsWith(PERSISTENT);
        if (!persistent && (name == null || !name.startsWith(NON_PERSISTENT))) {
            throw invalid(name);
        }
        String rest = name.substring(persistent ? PERSISTENT.length() : NON_PERSISTENT.length());
        int first = rest.indexOf('/');
        int second = first < 0 ? -1 : rest.indexOf('/', first + 1);
        if (second < 0) {
            throw invalid(name);
        }
        String localName = rest.substring(second + 1);
        try {
            return new TopicName(
                    persistent,
                    rest.substring(0, first),
                    rest.substring(first + 1, second),
                    localName,
                    partitionIndexOf(localName));
        } catch (InvalidSettingsException e) {
            throw invalid(name);
        }
    }

    /**
     * The topic a client's {@code name} means, as the broker reads it: a short name {@code orders}
     * is {@code persistent://public/default/orders}, {@code tenant/namespace/orders} is
     * {@code persistent://tenant/namespace/orders} (empty parts between slashes are skipped when
     * counting the parts, as the broker does), and the domain is matched ignoring case. A client's
     * producer or consumer is metered by this name.
     *
     * @throws InvalidSettingsException if the broker would refuse the name, or it is a legacy name
     *     with a cluster part ({@code persistent://tenant/cluster/namespace/topic}), which Sluice
     *     cannot place in its namespace scopes and so refuses
     */
    public static TopicName resolve(String name) {
        if (name == null) {
            throw invalid(null);
        }
        String full = name;
        int scheme = name.indexOf("://");
        if (scheme < 0) {
            int parts = nonEmptyParts(name);
            if (parts == 3) {
                full = PERSISTENT + name;
            } else if (parts == 1) {
                full = PERSISTENT + "public/default/" + name.replace("/", "");
            } else {
                throw invalid(name);
            }
        } else {
            String domain = name.substring(0, scheme);
            String rest = name.substring(scheme + "://".length());
            if (domain.equalsIgnoreCase("persistent")) {
                full = PERSISTENT + rest;
            } else if (domain.equalsIgnoreCase("non-persistent")) {
                full = NON_PERSISTENT + rest;
            } else {
                throw invalid(name);
            }
        }
        return parse(full);
    }

    /** The parts of a short name between slashes, leading, trailing and repeated slashes skipped. */
    private static int nonEmptyParts(String name) {
        int parts = 0;
        boolean inPart = false;
        for (int i = 0; i < name.length(); i++) {
            boolean slash = name.charAt(i) == '/';
            if (!slash && !inPart) {
                parts++;
            }
            inPart = !slash;
        }
        return parts;
    }

    /** The domain as written in the name: {@code persistent} or {@code non-persistent}. */
    public String domain() {
        return persistent ? "persistent" : "non-persistent";
    }

    /** {@code tenant/namespace}. */
    public String namespaceName() {
        return tenant + "/" + namespace;
    }

    /** True when this names one partition of a partitioned topic. */
    public boolean isPartition() {
        return partitionIndex >= 0;
    }

    /** The partitioned topic's name for a partition; this name otherwise. */
    public String baseName() {
        if (!isPartition()) {
            return toString();
        }
        return domain() + "://" + namespaceName() + "/"
                + localName.substring(0, localName.lastIndexOf(PARTITION_SUFFIX));
    }

    /** The fully qualified name. */
    @Override
    public String toString() {
        return domain() + "://" + namespaceName() + "/" + localName;
    }

    /** Pulsar's reading of {@code base-partition-N}; anything else (no digits, overflow, empty base) is no partition. */
    private static int partitionIndexOf(String localName) {
        int at = localName.lastIndexOf(PARTITION_SUFFIX);
        if (at <= 0) {
            return -1;
        }
        String digits = localName.substring(at + PARTITION_SUFFIX.length());
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException tooLarge) {
            return -1;
        }
    }

    private static InvalidSettingsException invalid(String name) {
        return new InvalidSettingsException(
                "",
                "must be a topic name persistent://tenant/namespace/topic or non-persistent://tenant/namespace/topic, got "
                        + InvalidSettingsException.quoted(name));
    }
}
