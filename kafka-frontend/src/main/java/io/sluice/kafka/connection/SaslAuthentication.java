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
 * <p>Confined to the connection's event loop; it reads once per authentication, never per message.
 */
final class SaslAuthentication {

    private static final String PRINCIPAL_TYPE = "User:";

    private final Consumer<String> accepted;
    private String mechanism;
    /** The user name the current exchange's first token gave; {@code null} before it or when it names nobody. */
    private String claimed;

    private boolean exchangeStarted;

    /** @param accepted told the principal the broker accepted, {@code User:<name>} */
    SaslAuthentication(Consumer<String> accepted) {
        this.accepted = accepted;
    }

    /** A SaslHandshake request, lent for the call: a new exchange of the mechanism it names begins. */
    void handshake(FrameView frame, RequestHeader header) {
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
            byte[] token = MessageFrames.read(
                            new SaslAuthenticateRequestData(),
                            frame,
                            header.bodyIndex(),
                            header.apiVersion(),
                            "bad_sasl_authenticate")
                    .authBytes();
            String name = SaslUserName.of(mechanism, token);
            String principal = name == null ? null : PRINCIPAL_TYPE + name;
            // A name no limit could be set for (control characters, too long) is charged as nobody in particular.
            return principal != null && IdentityName.isValid(principal) ? principal : KafkaScopes.ANONYMOUS;
        } catch (MalformedFrameException unreadable) {
            return null;
        }
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
