package io.sluice.kafka.connection;

import io.sluice.kafka.codec.MessageFrames;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.codec.ResponseFrame;
import io.sluice.kafka.codec.SaslUserName;
import io.sluice.kafka.gates.Exchange;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.IdentityName;
import io.sluice.relay.FrameView;
import io.sluice.relay.MalformedFrameException;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The SASL authentication of one connection as it passes through to the broker, read to learn the
 * connection's principal (docs/KAFKA.md, "Principals"): the mechanism from SaslHandshake, the user
 * name from the exchange's first SaslAuthenticate token ({@link SaslUserName}), and the principal
 * {@code User:<name>} handed on only when the broker's SaslAuthenticate response ends the exchange
 * without an error. A refused or unfinished authentication charges nobody, and the token after a
 * refusal is read as a new exchange's first, as the broker reads it; a re-authentication (KIP-368)
 * goes the same way and moves the connection to the principal it names. The requests and responses themselves pass through untouched, and
 * one that Sluice cannot read is left for the broker to judge.
 *
 * <p>SaslHandshake v0 (before Kafka 1.0, and librdkafka without ApiVersions) switches the
 * connection, once the broker accepted the handshake, to raw SASL tokens: each a size and the
 * token, without a Kafka header or SaslAuthenticate around it, both ways ({@link #rawTokens()}).
 * They are read the same way, the first client token naming the user; the exchange ends with the
 * broker's last token (a broker refusing a v0 exchange closes the connection), after which the
 * connection speaks Kafka requests again. Sluice follows only exchanges whose end it can see
 * ({@link SaslUserName#readable}); v0 with another mechanism (GSSAPI) closes the connection, as
 * before.
 *
 * <p>Confined to the connection's event loop; it reads once per authentication, never per message.
 */
final class SaslAuthentication {

    private static final String PRINCIPAL_TYPE = "User:";

    private final Consumer<String> accepted;
    private String mechanism;
    /** The user name the current exchange's first token gave; {@code null} before it or when it names nobody. */
    private String claimed;

    private boolean exchangeStarted;
    /** The connection carries raw SASL tokens (SaslHandshake v0), not Kafka requests and responses. */
    private boolean rawTokens;

    /** @param accepted told the principal the broker accepted, {@code User:<name>} */
    SaslAuthentication(Consumer<String> accepted) {
        this.accepted = accepted;
    }

    /**
     * A SaslHandshake request, lent for the call: a new exchange of the mechanism it names begins.
     * Returns the exchange its response goes through: for v0, the broker's acceptance switches the
     * connection to raw tokens; {@code null} for v1.
     *
     * @throws MalformedFrameException for v0 with a mechanism whose exchange Sluice cannot follow
     */
    Exchange handshake(FrameView frame, RequestHeader header) {
        mechanism = null;
        claimed = null;
        exchangeStarted = false;
        try {
            mechanism = MessageFrames.read(
                            new SaslHandshakeRequestData(),
                            frame,
                            header.bodyIndex(),
                            header.apiVersion(),
                            "bad_sasl_handshake")
                    .mechanism();
        } catch (MalformedFrameException unreadable) {
            // The broker refuses it; no mechanism, no principal.
        }
        if (header.apiVersion() > 0) {
            return null;
        }
        if (!SaslUserName.readable(mechanism)) {
            throw new MalformedFrameException(
                    "unsupported_api_version",
                    "SaslHandshake v0 (raw SASL tokens) with a mechanism other than PLAIN, SCRAM or OAUTHBEARER");
        }
        return new RawHandshake();
    }

    /** Whether the connection carries raw SASL tokens now (after an accepted SaslHandshake v0), not Kafka frames. */
    boolean rawTokens() {
        return rawTokens;
    }

    /** A raw SASL token from the client (size and token), lent for the call: the exchange's first names the user. */
    void rawFromClient(FrameView frame) {
        if (!exchangeStarted) {
            exchangeStarted = true;
            claimed = principalOf(rawToken(frame));
        }
    }

    /**
     * A raw SASL token from the broker, lent for the call: when it ends the exchange, the principal
     * claimed is the connection's and Kafka requests follow; an OAUTHBEARER refusal (an error
     * challenge, after which the broker closes the connection) names nobody.
     */
    void rawFromBroker(FrameView frame) {
        byte[] token = rawToken(frame);
        if (refusedByChallenge(mechanism, token)) {
            claimed = null;
        } else if (ends(mechanism, token)) {
            rawTokens = false;
            exchangeStarted = false;
            if (claimed != null) {
                accepted.accept(claimed);
            }
        }
    }

    /** The token of a raw frame: its bytes after the size. */
    private static byte[] rawToken(FrameView frame) {
        byte[] token = new byte[Math.max(0, frame.length() - 4)];
        frame.buffer().getBytes(frame.index() + 4, token);
        return token;
    }

    /**
     * A SaslAuthenticate request, lent for the call: its first token names the user. Returns the
     * exchange its response goes through, which hands on the principal if the broker accepts.
     */
    Exchange authenticate(FrameView frame, RequestHeader header) {
        if (!exchangeStarted) {
            exchangeStarted = true;
            claimed = principalOf(frame, header);
        }
        return new Response(claimed);
    }

    private String principalOf(FrameView frame, RequestHeader header) {
        if (!SaslUserName.readable(mechanism)) {
            return null;
        }
        try {
            return principalOf(MessageFrames.read(
                            new SaslAuthenticateRequestData(),
                            frame,
                            header.bodyIndex(),
                            header.apiVersion(),
                            "bad_sasl_authenticate")
                    .authBytes());
        } catch (MalformedFrameException unreadable) {
            return null;
        }
    }

    /** The principal the first {@code token} of an exchange of the current (readable) mechanism claims. */
    private String principalOf(byte[] token) {
        String name = SaslUserName.of(mechanism, token);
        String principal = name == null ? null : PRINCIPAL_TYPE + name;
        // A name no limit could be set for (control characters, too long) is charged as nobody in particular.
        return principal != null && IdentityName.isValid(principal) ? principal : KafkaScopes.ANONYMOUS;
    }

    /** Whether the broker's error-free {@code authBytes} end an exchange of {@code mechanism}. */
    private static boolean ends(String mechanism, byte[] authBytes) {
        return switch (mechanism) {
            // SCRAM's server-first message comes without error before the proof is checked; its server-final says v=.
            case SaslUserName.SCRAM_SHA_256, SaslUserName.SCRAM_SHA_512 ->
                authBytes.length >= 2 && new String(authBytes, 0, 2, StandardCharsets.US_ASCII).equals("v=");
            // An OAUTHBEARER failure is a challenge (an error document) the client must answer before the error.
            case SaslUserName.OAUTHBEARER -> authBytes.length == 0;
            default -> true;
        };
    }

    /** Whether the broker's error-free {@code authBytes} refuse the token: OAUTHBEARER's error challenge. */
    private static boolean refusedByChallenge(String mechanism, byte[] authBytes) {
        return SaslUserName.OAUTHBEARER.equals(mechanism) && authBytes.length > 0;
    }

    /** The broker's response to a SaslHandshake v0 request: accepted, the connection carries raw tokens. */
    private final class RawHandshake implements Exchange {

        @Override
        public void complete(ResponseFrame response) {
            try {
                rawTokens = MessageFrames.read(
                                        new SaslHandshakeResponseData(),
                                        response.frame(),
                                        response.bodyIndex(),
                                        response.apiVersion(),
                                        "bad_sasl_handshake_response")
                                .errorCode()
                        == Errors.NONE.code();
            } catch (MalformedFrameException unreadable) {
                // Then the client cannot read it either, and gives up.
            }
        }

        @Override
        public void abandon() {}
    }

    /** The broker's response to one SaslAuthenticate request. */
    private final class Response implements Exchange {

        private final String principal;

        Response(String principal) {
            this.principal = principal;
        }

        @Override
        public void complete(ResponseFrame response) {
            SaslAuthenticateResponseData data;
            try {
                data = MessageFrames.read(
                        new SaslAuthenticateResponseData(),
                        response.frame(),
                        response.bodyIndex(),
                        response.apiVersion(),
                        "bad_sasl_authenticate_response");
            } catch (MalformedFrameException unreadable) {
                return;
            }
            if (data.errorCode() != Errors.NONE.code() || refusedByChallenge(mechanism, data.authBytes())) {
                // The broker reads the client's next token afresh (an OAUTHBEARER client may answer a
                // refusal with a new initial response): so does Sluice, keeping no claim of this one.
                exchangeStarted = false;
                claimed = null;
            } else if (principal != null && mechanism != null && ends(mechanism, data.authBytes())) {
                exchangeStarted = false;
                accepted.accept(principal);
            }
        }

        @Override
        public void abandon() {}
    }
}
