package io.sluice.pulsar.connection;

import com.google.protobuf.ByteString;
import io.sluice.pulsar.codec.proto.CommandConnect;
import org.junit.jupiter.api.Test;

import javax.security.auth.x500.X500Principal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The role a CONNECT claims, as Pulsar's token and basic authentication providers name it. */
class ConnectRoleTest {

    private static final Supplier<X500Principal> NO_CERTIFICATE = () -> null;

    @Test
    void aTokenClaimsItsSubjectOrTheConfiguredClaim() {
        String token = token("{\"sub\":\"alice\",\"role\":\"tenant-a\"}");
        assertEquals("alice", ConnectRole.claimed(connect("token", token), "sub", NO_CERTIFICATE));
        assertEquals("tenant-a", ConnectRole.claimed(connect("token", token), "role", NO_CERTIFICATE));
        assertNull(ConnectRole.claimed(connect("token", token), "missing", NO_CERTIFICATE));
        assertNull(ConnectRole.claimed(connect("token", "not.a-token"), "sub", NO_CERTIFICATE));
    }

    @Test
    void basicClaimsTheUserNameAndNeverThePassword() {
        assertEquals("bob", ConnectRole.claimed(connect("basic", "bob:pass:word"), "sub", NO_CERTIFICATE));
        assertNull(ConnectRole.claimed(connect("basic", "bob"), "sub", NO_CERTIFICATE), "no password, no user");
        assertNull(ConnectRole.claimed(connect("basic", ":secret"), "sub", NO_CERTIFICATE), "an empty user is no role");
    }

    @Test
    void otherAuthenticationOrNoneClaimsNoRole() {
        assertNull(ConnectRole.claimed(
                CommandConnect.newBuilder().setClientVersion("x").build(), "sub", NO_CERTIFICATE));
        assertNull(ConnectRole.claimed(connect("none", "x"), "sub", NO_CERTIFICATE));
        assertNull(ConnectRole.claimed(connect("athenz", "x:y"), "sub", NO_CERTIFICATE));
        assertNull(
                ConnectRole.claimed(connect("token", token("{\"sub\":\"a\\u0000b\"}")), "sub", NO_CERTIFICATE),
                "a control character names no role");
    }

    @Test
    void tlsClaimsTheFirstCommonNameOfTheVerifiedCertificateAsThePulsarBrokerReadsIt() {
        CommandConnect tls = connect("tls", "PulsarAuthInit");
        assertEquals("alice", ConnectRole.claimed(tls, "sub", () -> new X500Principal("CN=alice, OU=Apps, O=Example")));
        assertEquals("alice", ConnectRole.claimed(tls, "sub", () -> new X500Principal("O=Example, CN=alice, CN=bob")));
        assertNull(ConnectRole.claimed(tls, "sub", NO_CERTIFICATE), "no certificate on a plaintext port, no role");
        assertNull(ConnectRole.claimed(tls, "sub", () -> new X500Principal("O=Example")), "no common name");
        assertEquals(
                "alice",
                ConnectRole.claimed(
                        CommandConnect.newBuilder()
                                .setClientVersion("x")
                                .setAuthMethodName("tls")
                                .build(),
                        "sub",
                        () -> new X500Principal("CN=alice")),
                "the method alone is enough: the broker's TLS provider reads no data");
        // The broker splits at every comma, an escaped one too: so does Sluice, naming the role as the broker does.
        assertEquals("Kafka\\", ConnectRole.claimed(tls, "sub", () -> new X500Principal("CN=Kafka\\, Inc.")));
    }

    @Test
    void aCertificateIsNoRoleWithoutTlsAuthentication() {
        assertNull(ConnectRole.claimed(
                CommandConnect.newBuilder().setClientVersion("x").build(), "sub", () -> new X500Principal("CN=alice")));
        String token = token("{\"sub\":\"bob\"}");
        assertEquals("bob", ConnectRole.claimed(connect("token", token), "sub", () -> new X500Principal("CN=alice")));
    }

    static CommandConnect connect(String method, String data) {
        return CommandConnect.newBuilder()
                .setClientVersion("test")
                .setAuthMethodName(method)
                .setAuthData(ByteString.copyFrom(data, StandardCharsets.UTF_8))
                .build();
    }

    static String token(String claims) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        return url.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + url.encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
    }
}
