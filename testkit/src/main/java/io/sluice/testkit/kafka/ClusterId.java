package io.sluice.testkit.kafka;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.random.RandomGenerator;

/**
 * The id a KRaft cluster's storage is formatted with, and the one argument that hands it to the
 * storage tool.
 *
 * <p>An id is 16 random bytes in URL-safe base64 without padding, as Kafka makes them. One in 64
 * such strings begins with {@code -}, which an argument parser reads as an option (the storage tool
 * then stops with "argument --cluster-id/-t: expected one argument"); Kafka's own generator draws
 * again in that case, and so does {@link #random}. {@link #option} passes the id joined to its flag,
 * so that even an id from elsewhere cannot be taken for an option.
 */
final class ClusterId {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private ClusterId() {}

    /** A new id that does not begin with {@code -}. */
    static String random(RandomGenerator random) {
        while (true) {
            String id = ENCODER.encodeToString(ByteBuffer.allocate(16)
                    .putLong(random.nextLong())
                    .putLong(random.nextLong())
                    .array());
            if (id.charAt(0) != '-') {
                return id;
            }
        }
    }

    /** {@code --cluster-id=ID}: one argument, whatever the id begins with. */
    static String option(String id) {
        return "--cluster-id=" + id;
    }
}
