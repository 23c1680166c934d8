package io.sluice.pulsar.connection;

import io.sluice.limits.IdentityName;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.relay.TokenClaims;

import java.nio.charset.StandardCharsets;

/**
 * The role a client's CONNECT claims (docs/REFERENCE.md, "Limits by identity"): with token
 * authentication the token's role claim ({@code --pulsar-role-claim}, {@code sub} by default, as the
 * broker's {@code tokenAuthClaim}), read and not verified; with basic authentication the user name.
 * A claim only: the connection takes the role once the broker answers CONNECTED. The credential
 * itself (the token's signature, the password) is never kept or logged. Stateless.
 */
final class ConnectRole {

    /** The auth method names of Pulsar's token and basic authentication providers. */
    static final String TOKEN = "token";

    static final String BASIC = "basic";

    /** The claim that names a token's role unless {@code --pulsar-role-claim} says otherwise. */
    static final String DEFAULT_CLAIM = "sub";

    private ConnectRole() {}

    /**
     * The role {@code connect} claims; {@code null} for another (or no) authentication, or
     * credentials that name no valid role (1 to 255 characters, no control characters).
     *
     * @param roleClaim the token claim that names the role
     */
    static String claimed(CommandConnect connect, String roleClaim) {
        if (!connect.hasAuthMethodName() || !connect.hasAuthData()) {
            return null;
        }
        byte[] data = connect.getAuthData().toByteArray();
        String role = switch (connect.getAuthMethodName()) {
            case TOKEN -> TokenClaims.claim(data, roleClaim);
            case BASIC -> basicUser(data);
            default -> null;
        };
        return role != null && IdentityName.isValid(role) ? role : null;
    }

    /** {@code user:password}: the user, without turning the password into a string. */
    private static String basicUser(byte[] data) {
        for (int i = 0; i < data.length; i++) {
            if (data[i] == ':') {
                return new String(data, 0, i, StandardCharsets.UTF_8);
            }
        }
        return null;
    }
}
