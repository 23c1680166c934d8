package io.sluice.kafka.codec;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The user names of the first SASL tokens stock clients send, and tokens that name nobody. */
public class SaslUserNameTest {

    @Test
    void plainIsTheAuthorizationIdWhenGivenElseTheUserName() {
        assertEquals("alice", SaslUserName.of("PLAIN", bytes("\0alice\0alice-secret")));
        assertEquals("admin", SaslUserName.of("PLAIN", bytes("admin\0alice\0alice-secret")));
        assertNull(SaslUserName.of("PLAIN", bytes("alice-secret")), "no separators, nobody");
        assertNull(SaslUserName.of("PLAIN", bytes("\0alice")), "no password, nobody");
        assertNull(SaslUserName.of("PLAIN", bytes("\0\0secret")), "an empty user name is nobody");
    }

    @Test
    void scramIsTheUserNameOfTheClientFirstMessageUnescaped() {
        assertEquals("alice", SaslUserName.of("SCRAM-SHA-512", bytes("n,,n=alice,r=fyko+d2lbbFgONRv9qkxdawL")));
        assertEquals("a,b=c", SaslUserName.of("SCRAM-SHA-256", bytes("n,a=a=2Cb=3Dc,n=a=2Cb=3Dc,r=nonce")));
        assertEquals("alice", SaslUserName.of("SCRAM-SHA-256", bytes("n,,n=alice,r=nonce,ext=1")));
        assertNull(SaslUserName.of("SCRAM-SHA-256", bytes("n,,n=a=2Xb,r=nonce")), "a bad escape names nobody");
        assertNull(SaslUserName.of("SCRAM-SHA-256", bytes("n,,r=nonce")));
        assertNull(SaslUserName.of("SCRAM-SHA-256", bytes("n=alice")));
    }

    @Test
    void oauthBearerIsTheSubjectOfTheTokenUnverified() {
        String token = unsecuredToken("{\"iss\":\"x\",\"sub\":\"alice\",\"scope\":[\"a\"],\"exp\":1}");
        assertEquals("alice", SaslUserName.of("OAUTHBEARER", bytes("n,,\u0001auth=Bearer " + token + "\u0001\u0001")));
        assertEquals(
                "alice",
                SaslUserName.of(
                        "OAUTHBEARER", bytes("n,a=alice,\u0001host=h\u0001auth=Bearer " + token + "\u0001\u0001")));
        assertNull(SaslUserName.of(
                "OAUTHBEARER", bytes("n,,\u0001auth=Bearer " + unsecuredToken("{\"sub\":42}") + "\u0001\u0001")));
        assertNull(SaslUserName.of("OAUTHBEARER", bytes("n,,\u0001auth=Bearer not-a-jwt\u0001\u0001")));
        assertNull(SaslUserName.of("OAUTHBEARER", bytes("n,,\u0001\u0001")));
    }

    @Test
    void scramSkipsTheReservedExtensionAsTheBrokerDoes() {
        assertEquals("alice", SaslUserName.of("SCRAM-SHA-256", bytes("n,,m=x,n=alice,r=nonce")));
        assertNull(SaslUserName.of("SCRAM-SHA-256", bytes("y,,n=alice,r=nonce")), "the broker takes n, only");
        assertNull(SaslUserName.of("SCRAM-SHA-256", bytes("n,,n=alice,r=nonce,,")), "nor trailing junk");
    }

    @Test
    void aScramDelegationTokenIsChargedAsNobodyInParticularNeverByItsId() {
        assertEquals(
                SaslUserName.DELEGATION_TOKEN_USER,
                SaslUserName.of("SCRAM-SHA-256", bytes("n,,n=tokenid42,r=nonce,tokenauth=true")));
        assertEquals(
                SaslUserName.DELEGATION_TOKEN_USER,
                SaslUserName.of("SCRAM-SHA-512", bytes("n,,n=tokenid42,r=nonce,tokenauth=false,tokenauth=TRUE")));
        assertEquals(
                "tokenid42",
                SaslUserName.of("SCRAM-SHA-512", bytes("n,,n=tokenid42,r=nonce,tokenauth=true,tokenauth=no")),
                "the last value counts");
    }

    @Test
    void oauthBearerTakesTheLastAuthAsTheBrokersParserDoes() {
        String forged = unsecuredToken("{\"sub\":\"victim\"}");
        String real = unsecuredToken("{\"sub\":\"mallory\"}");
        assertEquals(
                "mallory",
                SaslUserName.of(
                        "OAUTHBEARER",
                        bytes("n,,\u0001auth=Bearer " + forged + "\u0001auth=Bearer " + real + "\u0001\u0001")));
        assertNull(
                SaslUserName.of("OAUTHBEARER", bytes("n,,\u0001auth=Basic " + real + "\u0001\u0001")),
                "not a bearer token");
        assertNull(
                SaslUserName.of("OAUTHBEARER", bytes("n,,\u0001auth=Bearer " + real + "\u0001")),
                "the broker wants the closing separator");
        assertEquals(
                "mallory",
                SaslUserName.of("OAUTHBEARER", bytes("n,,\u0001auth=bearer   " + real + "\u0001\u0001")),
                "scheme in any case, spaces before the token");
    }

    @Test
    void otherMechanismsAndHugeTokensNameNobody() {
        assertNull(SaslUserName.of("GSSAPI", bytes("\0alice\0secret")));
        assertNull(SaslUserName.of(null, bytes("\0alice\0secret")));
        byte[] huge = new byte[SaslUserName.MAX_TOKEN_LENGTH + 1];
        huge[1] = 'a';
        huge[3] = 0;
        assertNull(SaslUserName.of("PLAIN", huge));
    }

    public static String unsecuredToken(String claims) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        return url.encodeToString(bytes("{\"alg\":\"none\"}")) + "." + url.encodeToString(bytes(claims)) + ".";
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
