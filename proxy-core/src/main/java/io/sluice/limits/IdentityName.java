package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;

/**
 * The rule of every identity's name a limit may be set for (a Kafka principal, a Pulsar role):
 * 1 to 255 characters, none of them a control character, as docs/REFERENCE.md ("Limits by
 * identity") says. What the name means is its protocol's business; this only keeps names that
 * cannot be written in a log line or a metrics label out of the document.
 */
public final class IdentityName {

    /** The longest name. */
    public static final int MAX_LENGTH = 255;

    private IdentityName() {}

    /**
     * The rule for an identity called {@code what} in messages ({@code a Kafka principal}).
     *
     * @return a rule that throws {@link InvalidSettingsException} for an empty, long or controlled name
     */
    public static NameRule rule(String what) {
        return name -> {
            if (!isValid(name)) {
                throw new InvalidSettingsException(
                        "",
                        "must be " + what + " of 1 to " + MAX_LENGTH + " characters without control characters, got "
                                + InvalidSettingsException.quoted(name));
            }
        };
    }

    /** Whether {@code name} is 1 to 255 characters, none a control character. */
    public static boolean isValid(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
