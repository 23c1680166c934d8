package io.sluice.status;

import java.util.Objects;

/**
 * Who a throttle applies to: a client's produce to (or fetch from) one topic over one connection.
 *
 * @param protocol   the front end's protocol, e.g. {@code pulsar} or {@code kafka}
 * @param connection the client's address
 * @param topic      the throttled topic
 * @param identity   who the client is, in its front end's declared identity fields
 */
public record ThrottleSubject(String protocol, String connection, String topic, ClientIdentity identity) {

    public ThrottleSubject {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(identity, "identity");
    }
}
