package io.sluice.kafka.codec;

import io.sluice.relay.TokenClaims;

import java.nio.charset.StandardCharsets;

/**
 * Who a SASL client says it is, read from the first token it sends (docs/KAFKA.md, "Principals"):
 * SASL/PLAIN the authorization id, else the user name; SCRAM-SHA-256/512 the user name of the
 * client-first message ({@code =2C} and {@code =3D} unescaped); OAUTHBEARER the {@code sub} claim
 * of the bearer token, read and not verified. Only the name is read; the password, the nonce and
 * the token's signature are never looked at, kept or logged. The name is a claim until the broker
 * accepts the authentication. Stateless.
 */
public final class SaslUserName {

    /** The mechanisms whose first token names the user. */
    public static final String PLAIN = "PLAIN";

    public static final String SCRAM_SHA_256 = "SCRAM-SHA-256";
    public static final String SCRAM_SHA_512 = "SCRAM-SHA-512";
    public static final String OAUTHBEARER = "OAUTHBEARER";

    /** The claim that names an OAUTHBEARER token's principal, as Kafka's {@code sasl.oauthbearer.sub.claim.name} defaults. */
    public static final String SUBJECT_CLAIM = "sub";

    /** A longer first token names nobody Sluice will charge: no client sends one. */
    public static final int MAX_TOKEN_LENGTH = TokenClaims.MAX_TOKEN_LENGTH;

    private SaslUserName() {}

    /**
     * The user name in {@code token}, the first token of an exchange of {@code mechanism};
     * {@code null} for another mechanism or a token that names nobody (the broker will refuse it).
     */
    public static String of(String mechanism, byte[] token) {
        if (mechanism == null || token == null || token.length > MAX_TOKEN_LENGTH) {
            return null;
        }
        String name = switch (mechanism) {
            case PLAIN -> plain(token);
            case SCRAM_SHA_256, SCRAM_SHA_512 -> scram(new String(token, StandardCharsets.UTF_8));
            case OAUTHBEARER -> oauthBearer(new String(token, StandardCharsets.UTF_8));
            default -> null;
        };
        return name == null || name.isEmpty() ? null : name;
    }

    /** Whether Sluice reads the user name of {@code mechanism}'s first token. */
    public static boolean readable(String mechanism) {
        return PLAIN.equals(mechanism)
                || SCRAM_SHA_256.equals(mechanism)
                || SCRAM_SHA_512.equals(mechanism)
                || OAUTHBEARER.equals(mechanism);
    }

    /** {@code [authzid] NUL authcid NUL passwd} (RFC 4616): the password is never turned into a string. */
    private static String plain(byte[] token) {
        int first = indexOf(token, 0);
        int second = first < 0 ? -1 : indexOf(token, first + 1);
        if (second < 0) {
            return null;
        }
        String authorizationId = new String(token, 0, first, StandardCharsets.UTF_8);
        return authorizationId.isEmpty()
                ? new String(token, first + 1, second - first - 1, StandardCharsets.UTF_8)
                : authorizationId;
    }

    /** {@code gs2-header n=username,r=nonce[,extensions]} (RFC 5802), the header {@code n,[a=authzid],}. */
    private static String scram(String message) {
        int bare = gs2HeaderEnd(message);
        if (bare < 0 || !message.startsWith("n=", bare)) {
            return null;
        }
        int end = message.indexOf(',', bare);
        return end < 0 ? null : unescapeSaslName(message.substring(bare + 2, end));
    }

    /**
     * {@code gs2-header \x01 auth=Bearer token \x01 (key=value \x01)* \x01} (RFC 7628): the
     * {@link #SUBJECT_CLAIM} of the token.
     */
    private static String oauthBearer(String message) {
        int start = gs2HeaderEnd(message);
        if (start < 0) {
            return null;
        }
        for (String pair : message.substring(start).split("\u0001")) {
            if (pair.regionMatches(true, 0, "auth=Bearer ", 0, 12)) {
                return TokenClaims.claim(pair.substring(12).trim(), SUBJECT_CLAIM);
            }
        }
        return null;
    }

    /** Where the message after the GS2 header {@code (n|y|p=...),[a=authzid],} starts; -1 when it has none. */
    private static int gs2HeaderEnd(String message) {
        int firstComma = message.indexOf(',');
        if (firstComma < 0) {
            return -1;
        }
        int secondComma = message.indexOf(',', firstComma + 1);
        return secondComma < 0 ? -1 : secondComma + 1;
    }

    /** {@code =2C} is a comma and {@code =3D} an equals sign (RFC 5802 saslname); any other {@code =} names nobody. */
    private static String unescapeSaslName(String name) {
        StringBuilder unescaped = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '=') {
                unescaped.append(c);
            } else if (name.startsWith("=2C", i)) {
                unescaped.append(',');
                i += 2;
            } else if (name.startsWith("=3D", i)) {
                unescaped.append('=');
                i += 2;
            } else {
                return null;
            }
        }
        return unescaped.toString();
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                return i;
            }
        }
        return -1;
    }
}
