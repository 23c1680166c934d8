package io.sluice.limits;

import java.io.IOException;

/**
 * A change of limits that could not be made because the store the limits live in cannot be
 * reached; nothing changed. The admin API answers 503.
 */
public final class LimitsUnavailableException extends IOException {

    public LimitsUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
