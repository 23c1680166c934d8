package io.sluice.kafka.scopes;

import io.sluice.limits.IdentityName;
import io.sluice.settings.InvalidSettingsException;

import java.util.regex.Pattern;

/**
 * Kafka's rules for the names a limit may be set for. A topic name is 1 to 249 characters of
 * {@code [a-zA-Z0-9._-]} and neither {@code .} nor {@code ..}, as the broker checks it; a prefix
 * is a non-empty string of the same characters; a client id is any non-empty string of up to 255
 * characters; a consumer group id (or a glob of them) 1 to 255 characters without control characters.
 */
public final class KafkaNames {

    /** The broker's own limit on topic names. */
    public static final int MAX_TOPIC_LENGTH = 249;

    public static final int MAX_CLIENT_ID_LENGTH = 255;

    /**
     * The client a request is charged to when its client id is over {@link #MAX_CLIENT_ID_LENGTH}
     * characters or holds control characters: all such clients share its bucket (and a limit may
     * be set for it by this name), so renaming itself that way grows nothing.
     */
    public static final String INVALID_CLIENT_ID = "(invalid)";

    /** The longest consumer group id Sluice keeps by name, and the longest group name or glob of a limit. */
    public static final int MAX_GROUP_LENGTH = 255;

    /**
     * The group a JoinGroup or OffsetCommit is charged to when its group id is empty, over
     * {@link #MAX_GROUP_LENGTH} characters or holds control characters: all such groups share its
     * bucket, so naming groups that way grows nothing.
     */
    public static final String INVALID_GROUP_ID = "(invalid)";

    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");

    private KafkaNames() {}

    /** @throws InvalidSettingsException if {@code name} is not a valid Kafka topic name */
    public static String topic(String name) {
        return checked(isTopic(name), "a Kafka topic name of 1 to 249 characters [a-zA-Z0-9._-], not . or ..", name);
    }

    /** Whether {@code name} is a name Kafka takes for a topic: 1 to 249 characters [a-zA-Z0-9._-], not . or ... */
    public static boolean isTopic(String name) {
        return ofTopicCharacters(name) && !name.equals(".") && !name.equals("..");
    }

    /** @throws InvalidSettingsException if {@code prefix} is not a non-empty run of topic-name characters */
    public static String prefix(String prefix) {
        return checked(ofTopicCharacters(prefix), "a topic name prefix of 1 to 249 characters [a-zA-Z0-9._-]", prefix);
    }

    /** @throws InvalidSettingsException if {@code clientId} is empty or longer than 255 characters */
    public static String clientId(String clientId) {
        return checked(
                clientId != null && !clientId.isEmpty() && clientId.length() <= MAX_CLIENT_ID_LENGTH,
                "a client id of 1 to 255 characters",
                clientId);
    }

    /**
     * The client id a request of {@code clientId} is charged to: itself, or
     * {@link #INVALID_CLIENT_ID} when it is longer than 255 characters or holds a control
     * character; {@code null} and empty (no client scope) stay as they are.
     */
    public static String chargedClientId(String clientId) {
        if (clientId == null) {
            return null;
        }
        if (clientId.length() > MAX_CLIENT_ID_LENGTH) {
            return INVALID_CLIENT_ID;
        }
        for (int i = 0; i < clientId.length(); i++) {
            if (Character.isISOControl(clientId.charAt(i))) {
                return INVALID_CLIENT_ID;
            }
        }
        return clientId;
    }

    /**
     * @throws InvalidSettingsException if {@code name} is not a consumer group id or glob of 1 to 255
     *     characters without control characters
     */
    public static String group(String name) {
        return checked(
                IdentityName.isValid(name),
                "a consumer group id or glob of 1 to 255 characters without control characters",
                name);
    }

    /**
     * The group a request naming {@code groupId} is charged to: itself, or {@link #INVALID_GROUP_ID}
     * when it is empty, longer than 255 characters or holds a control character.
     */
    public static String chargedGroupId(String groupId) {
        return IdentityName.isValid(groupId) ? groupId : INVALID_GROUP_ID;
    }

    /** Whether {@code text} is 1 to 249 characters of {@code [a-zA-Z0-9._-]}. */
    private static boolean ofTopicCharacters(String text) {
        return text != null
                && text.length() <= MAX_TOPIC_LENGTH
                && LEGAL.matcher(text).matches();
    }

    private static String checked(boolean valid, String mustBe, String name) {
        if (!valid) {
            throw new InvalidSettingsException(
                    "", "must be " + mustBe + ", got " + InvalidSettingsException.quoted(name));
        }
        return name;
    }
}
