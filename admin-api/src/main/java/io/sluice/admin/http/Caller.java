package io.sluice.admin.http;

import io.netty.util.AttributeKey;

import java.util.Locale;

/**
 * Which token a request under {@code /api/v1} presented, as the audit names it: the admin token,
 * the read-only token, or none (an API without a token, or a path that needs none).
 */
public enum Caller {
    ADMIN,
    READ,
    NONE;

    /** The caller of the request a connection is being answered for; requests of a connection come one at a time. */
    static final AttributeKey<Caller> OF_REQUEST = AttributeKey.valueOf(Caller.class, "caller");

    /** The caller of the request a connection is being answered for, kept until its answer is written. */
    static final AttributeKey<Caller> OF_ANSWER = AttributeKey.valueOf(Caller.class, "answered");

    /** {@code admin}, {@code read} or {@code none}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
