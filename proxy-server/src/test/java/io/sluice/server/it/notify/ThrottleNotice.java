package io.sluice.server.it.notify;

import io.sluice.pulsar.codec.proto.CommandThrottleProducer.ThrottlingReason;

/** A ThrottleProducer command the conformance client received, and when (System.nanoTime). */
public record ThrottleNotice(
        long requestId, long producerId, ThrottlingReason reason, long pauseForMillis, long receivedAtNanos) {}
