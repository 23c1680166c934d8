package io.sluice.bench.sidebyside;

import java.nio.ByteBuffer;

/**
 * Payloads that carry their own send time, {@link System#nanoTime} in the first 8 bytes, so a
 * consumer in the same JVM can time each message from publish to receipt without trusting the
 * millisecond publish time or a clock shared between processes.
 */
final class SendStamp {

    private SendStamp() {}

    /** A new payload of {@code bytes} (at least 8) stamped with now. */
    static byte[] payload(int bytes) {
        byte[] payload = new byte[Math.max(bytes, Long.BYTES)];
        ByteBuffer.wrap(payload).putLong(0, System.nanoTime());
        return payload;
    }

    /** Nanoseconds since {@code payload} was stamped. */
    static long ageNanos(byte[] payload) {
        return System.nanoTime() - ByteBuffer.wrap(payload).getLong(0);
    }
}
