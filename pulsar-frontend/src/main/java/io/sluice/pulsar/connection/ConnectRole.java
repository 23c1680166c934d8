package io.sluice.pulsar.connection;

import io.sluice.limits.IdentityName;
import io.sluice.pulsar.codec.proto.CommandConnect;
import io.sluice.relay.TokenClaims;

import javax.security.auth.x500.X500Principal;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * The role a client's CONNECT claims (docs/REFERENCE.md, "Limits by identity"): with token
 * authentication the token's role claim ({@code --pulsar-role-claim}, {@code sub} by default, as the
 * broker's {@code tokenAuthClaim}), read and not verified; with basic authentication the user name;
 * with TLS authentication the common name of the client certificate Sluice's port verified
 * ({@code --tls-client-ca}), as the broker's TLS provider reads it. A claim only: the connection takes the role once the broker answers CONNECTED. The credential
 * itself (the token's signature, the password) is never kept or logged. Stateless.
 */
final class ConnectRole {

    /** The auth method names of Pulsar's token and basic authentication providers. */
    static final String TOKEN = "token";

    static final String BASIC = "basic";
    static final String TLS = "tls";

    /** The claim that names a token's role unless {@code --pulsar-role-claim} says otherwise. */
    static final String DEFAULT_CLAIM = "sub";

    private ConnectRole() {}

    /**
     * The role {@code connect} claims; {@code null} for another (or no) authentication, or
     * credentials that name no valid role (1 to 255 characters, no control characters).
     *
     * @param roleClaim   the token claim that names the role
     * @param certificateSubject the subject of the client certificate of the connection's TLS
     *                    handshake, or {@code null}; asked for only with TLS authentication
     */
    static String claimed(CommandConnect connect, String roleClaim, Supplier<X500Principal> certificateSubject) {
        if (!connect.hasAuthMethodName()) {
            return null;
        }
        String role;
        if (connect.getAuthMethodName().equals(TLS)) {
            role = commonName(certificateSubject.get());
        } else if (!connect.hasAuthData()) {
            role = null;
        } else {
            byte[] data = connect.getAuthData().toByteArray();
            role = switch (connect.getAuthMethodName()) {
                case TOKEN -> TokenClaims.claim(data, roleClaim);
                case BASIC -> basicUser(data);
                default -> null;
            };
        }
        return role != null && IdentityName.isValid(role) ? role : null;
    }

    /**
     * The certificate subject's common name as Pulsar's {@code AuthenticationProviderTls} reads it:
     * the subject in RFC 2253 form split at every comma, the value of the first part {@code CN=}
     * with a value; {@code null} without a certificate or a common name.
     */
    static String commonName(X500Principal subject) {
        if (subject == null) {
            return null;
        }
        for (String part : subject.getName(X500Principal.RFC2253).split(",")) {
            if (part.startsWith("CN=") && part.length() > 3) {
                return part.substring(3);
            }
        }
        return null;
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
