package io.sluice.admin.http;

import java.util.Objects;

/**
 * Who sent a request, as the audit records it.
 *
 * @param address the remote address of the connection, e.g. {@code /10.0.0.7:53122}
 * @param caller  which token the request presented
 */
public record Requester(String address, Caller caller) {

    public Requester {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(caller, "caller");
    }
}
