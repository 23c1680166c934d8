package io.sluice.relay;

import io.netty.handler.codec.DecoderException;

/**
 * Input that is not a valid frame or command of its protocol. The connection it arrived on is
 * closed; the {@link #reason()} is a short stable token used as a metrics label.
 */
public final class MalformedFrameException extends DecoderException {

    private final String reason;

    public MalformedFrameException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public MalformedFrameException(String reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    /** A short token for metrics, e.g. {@code frame_too_large}, {@code bad_length}, {@code bad_command}. */
    public String reason() {
        return reason;
    }
}
