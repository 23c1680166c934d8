package io.sluice.relay.connection;

import io.sluice.relay.IncompleteFrames;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.tls.ReloadingSslContext;

import java.time.Duration;
import java.util.Objects;

/**
 * What the relay must know of a front end to run its connections, the same for all of them.
 *
 * @param port           the front end's port in log lines, e.g. {@code Pulsar}
 * @param connections    what log lines call one of its connections, e.g. {@code Kafka connection}
 * @param services       the proxy's services with the front end's own counters
 * @param clientTls      the TLS its clients speak, or null for plaintext
 * @param clientFrames   how the client's bytes are framed
 * @param upstreamFrames how the upstream's bytes are framed
 * @param upstream       how its upstream connections are opened
 * @param handshake      how long a connection may take to its protocol's handshake, and what the
 *                       log line says of one that did not make it
 * @param stopDecoding   the {@link ReadGate} reasons that also stop decoding what the client sent
 *                       (the others only stop reading its socket); {@link ReadGate#DRAINING}
 *                       always does
 */
public record ConnectionSpec(
        String port,
        String connections,
        ProxyServices services,
        ReloadingSslContext clientTls,
        Framing clientFrames,
        Framing upstreamFrames,
        UpstreamDialer upstream,
        Handshake handshake,
        int stopDecoding) {

    public ConnectionSpec {
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(services, "services");
        Objects.requireNonNull(clientFrames, "clientFrames");
        Objects.requireNonNull(upstreamFrames, "upstreamFrames");
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(handshake, "handshake");
        stopDecoding |= ReadGate.DRAINING;
    }

    /** The frames of one side: their rule, and the largest size until the connection says otherwise. */
    public record Framing(FrameRule rule, int maxFrameSize) {

        public Framing {
            Objects.requireNonNull(rule, "rule");
        }

        /** A decoder of the upstream's frames. */
        FrameDecoder newDecoder() {
            return new FrameDecoder(rule, maxFrameSize);
        }

        /** A decoder of a client's frames, under the process's bound on incomplete frames. */
        FrameDecoder newClientDecoder(IncompleteFrames bounds) {
            return new FrameDecoder(rule, maxFrameSize, bounds);
        }
    }

    /**
     * The handshake deadline: from accept to the moment the front end says its handshake is done
     * ({@link ProxiedConnection#handshakeCompleted}). Its log line reads
     * {@code Closing <connections> from <address>: no <awaited> within <timeout> ms, <why>
     * (handshake_timeout)}, {@code why} being one of the three below.
     *
     * @param awaited          what did not come, e.g. {@code Pulsar handshake}
     * @param tlsPending       why, while the client's TLS handshake is not done
     * @param nothingReceived  why, when no whole frame came from the client
     * @param upstreamAwaited  why, when the client sent a frame and the upstream did not answer in time
     */
    public record Handshake(
            Duration timeout, String awaited, String tlsPending, String nothingReceived, String upstreamAwaited) {

        public Handshake {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the handshake timeout must be positive");
            }
            Objects.requireNonNull(awaited, "awaited");
            Objects.requireNonNull(tlsPending, "tlsPending");
            Objects.requireNonNull(nothingReceived, "nothingReceived");
            Objects.requireNonNull(upstreamAwaited, "upstreamAwaited");
        }
    }
}
