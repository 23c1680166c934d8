package io.sluice.kafka.connection;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.sluice.kafka.codec.SaslUserNameTest;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.RateLimit;
import io.sluice.limits.ScopeRef;
import io.sluice.testing.LeakCheck;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection's principal through the whole pipeline, in memory: read from the SASL exchange,
 * charged once the broker accepted it, never when the broker refused it or before it answered.
 */
@ExtendWith(LeakCheck.class)
class SaslAuthenticationTest {

    private static final short PRODUCE_VERSION = 11;
    private static final short AUTHENTICATE_VERSION = 2;
    private static final ScopeRef ALICE = new ScopeRef(KafkaScopes.PRINCIPAL, "User:alice");

    private final ConnectionHarness harness = new ConnectionHarness();

    @AfterEach
    void nothingLeft() {
        harness.close();
        assertEquals(0, harness.alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void aPlainPrincipalTheBrokerAcceptedIsCharged() {
        harness.limit(
                ALICE, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        authenticate("PLAIN", "\0alice\0alice-secret", Errors.NONE, new byte[0]);
        assertEquals(Errors.POLICY_VIOLATION, secondProduceOutcome(), "alice's 10 records/s are spent by the first");
    }

    @Test
    void aScramPrincipalCountsOnlyOnceTheServerFinalMessageCame() {
        harness.limit(
                ALICE, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        handshake("SCRAM-SHA-512");
        exchange(2, "n,,n=alice,r=client-nonce", Errors.NONE, "r=client-nonceserver,s=c2FsdA==,i=4096");
        assertEquals(Errors.NONE, secondProduceOutcome(10, 11), "the server-first message proves nothing yet");
        exchange(3, "c=biws,r=client-nonceserver,p=cHJvb2Y=", Errors.NONE, "v=c2lnbmF0dXJl");
        assertEquals(Errors.POLICY_VIOLATION, secondProduceOutcome(20, 21), "the server-final message does");
    }

    @Test
    void aRefusedAuthenticationChargesNobody() {
        harness.limit(
                ALICE, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        authenticate("PLAIN", "\0alice\0wrong", Errors.SASL_AUTHENTICATION_FAILED, new byte[0]);
        assertEquals(Errors.NONE, secondProduceOutcome(), "not alice's records");
    }

    @Test
    void aConnectionThatHasNotAuthenticatedIsAnonymous() {
        harness.limit(
                new ScopeRef(KafkaScopes.PRINCIPAL, KafkaScopes.ANONYMOUS),
                Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        assertEquals(Errors.POLICY_VIOLATION, secondProduceOutcome(), "User:ANONYMOUS before any authentication");
    }

    @Test
    void anOauthBearerTokenRefusedByAChallengeLeavesNoClaimForTheNextToken() {
        Limit tenPerSecond =
                Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT);
        harness.limit(new ScopeRef(KafkaScopes.PRINCIPAL, "User:victim"), tenPerSecond);
        harness.limit(new ScopeRef(KafkaScopes.PRINCIPAL, "User:mallory"), tenPerSecond);
        handshake("OAUTHBEARER");
        String forged = SaslUserNameTest.unsecuredToken("{\"sub\":\"victim\"}");
        String real = SaslUserNameTest.unsecuredToken("{\"sub\":\"mallory\"}");
        exchange(2, "n,,\u0001auth=Bearer " + forged + "\u0001\u0001", Errors.NONE, "{\"status\":\"invalid_token\"}");
        exchange(3, "n,,\u0001auth=Bearer " + real + "\u0001\u0001", Errors.NONE, "");
        assertEquals(Errors.POLICY_VIOLATION, secondProduceOutcome(), "mallory, whom the broker accepted, is charged");
    }

    @Test
    void aReauthenticationMovesTheConnectionToItsNewPrincipal() {
        Limit tenPerSecond =
                Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT);
        harness.limit(new ScopeRef(KafkaScopes.PRINCIPAL, "User:bob"), tenPerSecond);
        authenticate("PLAIN", "\0alice\0alice-secret", Errors.NONE, new byte[0]);
        assertEquals(Errors.NONE, secondProduceOutcome(10, 11), "alice has no limit");
        handshake("PLAIN");
        exchange(20, "\0bob\0bob-secret", Errors.NONE, "");
        assertEquals(
                Errors.POLICY_VIOLATION, secondProduceOutcome(30, 31), "bob's limit from the re-authentication on");
    }

    @Test
    void aPlainPrincipalOfSaslHandshakeV0RawTokensIsChargedOnceTheBrokerAnswered() {
        harness.limit(
                ALICE, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        handshake("PLAIN", (short) 0);
        byte[] token = raw("\0alice\0alice-secret");
        harness.clientSends(token);
        assertArrayEquals(token, harness.brokerReceived(), "the raw token passes as it came");
        byte[] success = raw("");
        harness.brokerSends(Unpooled.wrappedBuffer(success));
        assertArrayEquals(success, harness.clientReceived(), "the broker's raw answer passes as it came");
        assertEquals(Errors.POLICY_VIOLATION, secondProduceOutcome(), "Kafka requests follow, charged to alice");
    }

    @Test
    void aScramExchangeOfRawTokensCountsOnlyOnceTheServerFinalMessageCame() {
        harness.limit(
                ALICE, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        handshake("SCRAM-SHA-256", (short) 0);
        harness.clientSends(raw("n,,n=alice,r=client-nonce"));
        harness.brokerReceived();
        harness.brokerSends(Unpooled.wrappedBuffer(raw("r=client-nonceserver,s=c2FsdA==,i=4096")));
        harness.clientReceived();
        byte[] clientFinal = raw("c=biws,r=client-nonceserver,p=cHJvb2Y=");
        harness.clientSends(clientFinal);
        assertArrayEquals(clientFinal, harness.brokerReceived(), "still a raw token, not read as a request");
        harness.brokerSends(Unpooled.wrappedBuffer(raw("v=c2lnbmF0dXJl")));
        harness.clientReceived();
        assertEquals(Errors.POLICY_VIOLATION, secondProduceOutcome(), "charged from the server-final message on");
    }

    @Test
    void aRefusedV0HandshakeLeavesTheConnectionOnKafkaRequests() {
        harness.limit(
                ALICE, Limit.publish(new RateLimit(10.0, null, null, null)).withOnExceed(OnExceed.REJECT));
        harness.clientSends(
                KafkaFrames.request(new SaslHandshakeRequestData().setMechanism("PLAIN"), (short) 0, 1, "client"));
        harness.brokerReceived();
        harness.brokerSends(KafkaFrames.response(
                new SaslHandshakeResponseData().setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()), (short) 0, 1));
        harness.clientReceived();
        assertEquals(Errors.NONE, secondProduceOutcome(), "no raw tokens, no principal: requests are read as such");
    }

    @Test
    void saslHandshakeV0WithAMechanismWhoseEndSluiceCannotSeeClosesTheConnection() {
        harness.clientSends(
                KafkaFrames.request(new SaslHandshakeRequestData().setMechanism("GSSAPI"), (short) 0, 1, "client"));
        assertFalse(harness.client.isOpen(), "GSSAPI's raw tokens could not be followed");
    }

    /** A raw SASL token as SaslHandshake v0 sends it: its size, then its bytes. */
    private static byte[] raw(String token) {
        byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + bytes.length)
                .putInt(bytes.length)
                .put(bytes)
                .array();
    }

    private void authenticate(String mechanism, String token, Errors outcome, byte[] serverToken) {
        handshake(mechanism);
        exchange(2, token, outcome, new String(serverToken, StandardCharsets.UTF_8));
    }

    private void handshake(String mechanism) {
        handshake(mechanism, (short) 1);
    }

    private void handshake(String mechanism, short version) {
        harness.clientSends(
                KafkaFrames.request(new SaslHandshakeRequestData().setMechanism(mechanism), version, 1, "client"));
        harness.brokerReceived();
        harness.brokerSends(KafkaFrames.response(
                new SaslHandshakeResponseData().setMechanisms(java.util.List.of(mechanism)), version, 1));
        harness.clientReceived();
    }

    private void exchange(int correlationId, String clientToken, Errors outcome, String serverToken) {
        harness.clientSends(KafkaFrames.request(
                new SaslAuthenticateRequestData().setAuthBytes(clientToken.getBytes(StandardCharsets.UTF_8)),
                AUTHENTICATE_VERSION,
                correlationId,
                "client"));
        harness.brokerReceived();
        harness.brokerSends(KafkaFrames.response(
                new SaslAuthenticateResponseData()
                        .setErrorCode(outcome.code())
                        .setAuthBytes(serverToken.getBytes(StandardCharsets.UTF_8)),
                AUTHENTICATE_VERSION,
                correlationId));
        harness.clientReceived();
    }

    private Errors secondProduceOutcome() {
        return secondProduceOutcome(10, 11);
    }

    /** Produces 50 records, then 5 more: the client's outcome of the second request. */
    private Errors secondProduceOutcome(int firstCorrelationId, int secondCorrelationId) {
        String clientId = "app-" + firstCorrelationId;
        harness.clientSends(
                RecordFrames.produceRequest(PRODUCE_VERSION, (short) -1, firstCorrelationId, clientId, part(50)));
        ByteBuf first = Unpooled.wrappedBuffer(harness.brokerReceived());
        harness.brokerSends(KafkaFrames.response(
                RecordFrames.produceResponse(RecordFrames.readProduce(first, PRODUCE_VERSION), PRODUCE_VERSION),
                PRODUCE_VERSION,
                firstCorrelationId));
        harness.clientReceived();

        harness.clientSends(
                RecordFrames.produceRequest(PRODUCE_VERSION, (short) -1, secondCorrelationId, clientId, part(5)));
        byte[] forwarded = harness.brokerReceived();
        if (forwarded.length > 0) {
            harness.brokerSends(KafkaFrames.response(
                    RecordFrames.produceResponse(
                            RecordFrames.readProduce(Unpooled.wrappedBuffer(forwarded), PRODUCE_VERSION),
                            PRODUCE_VERSION),
                    PRODUCE_VERSION,
                    secondCorrelationId));
        }
        ProduceResponseData answer =
                RecordFrames.readProduceResponse(Unpooled.wrappedBuffer(harness.clientReceived()), PRODUCE_VERSION);
        assertTrue(!answer.responses().isEmpty(), "an answer");
        return Errors.forCode(
                answer.responses().iterator().next().partitionResponses().get(0).errorCode());
    }

    private static Part part(int records) {
        return new Part("t", null, 0, RecordFrames.batch(records, 10));
    }
}
