package io.sluice.pulsar.connection;

import com.google.protobuf.ByteString;
import io.sluice.pulsar.codec.proto.CommandConnect;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The role a CONNECT claims, as Pulsar's token and basic authentication providers name it. */
class ConnectRoleTest {

    @Test
    void aTokenClaimsItsSubjectOrTheConfiguredClaim() {
        String token = token("{\"sub\":\"alice\",\"role\":\"tenant-a\"}");
        assertEquals("alice", ConnectRole.claimed(connect("token", token), "sub"));
        assertEquals("tenant-a", ConnectRole.claimed(connect("token", token), "role"));
        assertNull(ConnectRole.claimed(connect("token", token), "missing"));
        assertNull(ConnectRole.claimed(connect("token", "not.a-token"), "sub"));
    }

    @Test
    void basicClaimsTheUserNameAndNeverThePassword() {
        assertEquals("bob", ConnectRole.claimed(connect("basic", "bob:pass:word"), "sub"));
        assertNull(ConnectRole.claimed(connect("basic", "bob"), "sub"), "no password, no user");
        assertNull(ConnectRole.claimed(connect("basic", ":secret"), "sub"), "an empty user is no role");
    }

    @Test
    void otherAuthenticationOrNoneClaimsNoRole() {
        assertNull(ConnectRole.claimed(
                CommandConnect.newBuilder().setClientVersion("x").build(), "sub"));
        assertNull(ConnectRole.claimed(connect("none", "x"), "sub"));
        assertNull(ConnectRole.claimed(connect("athenz", "x:y"), "sub"));
        assertNull(
                ConnectRole.claimed(connect("token", token("{\"sub\":\"a\\u0000b\"}")), "sub"),
                "a control character names no role");
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
