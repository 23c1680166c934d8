package io.sluice.pulsar.connection;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.ByteString;
import io.sluice.limits.IdentityName;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.testing.ByteMutator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary CONNECT credentials through {@link ConnectRole} (the first byte picks token or basic
 * authentication, the rest is the auth data): nothing may escape, and a role, when there is one,
 * is a valid identity name. Seeds: a token and a basic credential as stock clients send them.
 */
class ConnectRoleFuzzTest {

    private static final String[] METHODS = {ConnectRole.TOKEN, ConnectRole.BASIC};
    private static final int GENERATED_INPUTS = 2_000;

    @FuzzTest(maxDuration = "5m")
    void credentials(byte[] input) {
        if (input.length == 0) {
            return;
        }
        CommandConnect connect = CommandConnect.newBuilder()
                .setClientVersion("fuzz")
                .setAuthMethodName(METHODS[(input[0] & 0xff) % METHODS.length])
                .setAuthData(ByteString.copyFrom(Arrays.copyOfRange(input, 1, input.length)))
                .build();
        String role = ConnectRole.claimed(connect, ConnectRole.DEFAULT_CLAIM, () -> null);
        assertTrue(role == null || IdentityName.isValid(role), "not a valid role: " + role);
    }

    @Test
    void generatedInputs() {
        List<byte[]> seeds = List.of(
                seed(0, ConnectRoleTest.token("{\"sub\":\"alice\",\"exp\":[1,{\"a\":null}]}")), seed(1, "bob:secret"));
        new ByteMutator(20_261_202L, seeds).feed(GENERATED_INPUTS, input -> credentials(input));
    }

    private static byte[] seed(int method, String data) {
        byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
        byte[] seed = new byte[bytes.length + 1];
        seed[0] = (byte) method;
        System.arraycopy(bytes, 0, seed, 1, bytes.length);
        return seed;
    }
}
