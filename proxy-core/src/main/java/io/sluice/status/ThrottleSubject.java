package io.sluice.status;

import java.util.Objects;

/**
 * Who a throttle applies to: a client's produce to (or fetch from) one topic over one connection,
 * or a client's requests of a kind that has no topic (a Kafka consumer group's joins and commits,
 * whose group is among its identity fields).
 *
 * @param protocol   the front end's protocol, e.g. {@code pulsar} or {@code kafka}
 * @param connection the client's address
 * @param topic      the throttled topic, or {@code null} for a throttle of requests that name none
 * @param identity   who the client is, in its front end's declared identity fields
 */
public record ThrottleSubject(String protocol, String connection, String topic, ClientIdentity identity) {

    public ThrottleSubject {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(identity, "identity");
    }
}
