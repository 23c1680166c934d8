package io.sluice.kafka.codec;

import io.sluice.relay.TokenClaims;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /**
     * Whom a SCRAM exchange with a delegation token is charged to: its owner is not in the exchange,
     * so all such connections share the name of the unauthenticated, never one bucket per token.
     */
    public static final String DELEGATION_TOKEN_USER = "ANONYMOUS";

    /** RFC 5802's saslname: characters but {@code ,} and {@code =}, or {@code =2C} and {@code =3D}. */
    private static final String SASLNAME = "(?:[\\x01-\\x7F&&[^=,]]|=2C|=3D)+";

    private static final String SCRAM_VALUE = "[\\x01-\\x7F&&[^,]]+";
    private static final Pattern SCRAM_CLIENT_FIRST = Pattern.compile("n,(a=" + SASLNAME + ")?,(m=" + SCRAM_VALUE
            + ",)?n=(?<saslname>" + SASLNAME + "),r=[\\x21-\\x7E&&[^,]]+(?<extensions>(,[A-Za-z]+=" + SCRAM_VALUE
            + ")*)");
    private static final String KEY_VALUE_END = "\u0001";
    private static final Pattern OAUTHBEARER_INITIAL_RESPONSE = Pattern.compile("n,(a=" + SASLNAME + ")?,"
            + KEY_VALUE_END + "(?<kvpairs>([A-Za-z]+=[\\x21-\\x7E \\t\\r\\n]+" + KEY_VALUE_END + ")*)"
            + KEY_VALUE_END);
    private static final Pattern OAUTHBEARER_AUTH =
            Pattern.compile("(?<scheme>[\\w]+)[ ]+(?<token>[-_~+/\\.a-zA-Z0-9]+([=]*))");

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

    /**
     * SCRAM's client-first message as Kafka's broker reads it (RFC 5802, the GS2 header {@code n,}
     * with an optional authorization id, the reserved {@code m=} extension skipped): the user name,
     * or for a delegation token ({@code tokenauth=true}, the last of that key winning) the
     * {@link #DELEGATION_TOKEN_USER}, because its owner is not in the exchange.
     */
    private static String scram(String message) {
        Matcher first = SCRAM_CLIENT_FIRST.matcher(message);
        if (!first.matches()) {
            return null;
        }
        String tokenAuth = null;
        String extensions = first.group("extensions");
        if (!extensions.isEmpty()) {
            for (String pair : extensions.substring(1).split(",")) {
                int equals = pair.indexOf('=');
                if (pair.substring(0, equals).equals("tokenauth")) {
                    tokenAuth = pair.substring(equals + 1);
                }
            }
        }
        return Boolean.parseBoolean(tokenAuth) ? DELEGATION_TOKEN_USER : unescapeSaslName(first.group("saslname"));
    }

    /**
     * OAUTHBEARER's client initial response as Kafka's broker reads it (RFC 7628: the GS2 header,
     * then {@code key=value} pairs each ended by {@code \x01}, then {@code \x01}): the
     * {@link #SUBJECT_CLAIM} of the token of the {@code auth} pair, the last one when a key repeats.
     */
    private static String oauthBearer(String message) {
        Matcher initial = OAUTHBEARER_INITIAL_RESPONSE.matcher(message);
        if (!initial.matches()) {
            return null;
        }
        String auth = null;
        for (String pair : initial.group("kvpairs").split(KEY_VALUE_END)) {
            int equals = pair.indexOf('=');
            if (equals > 0 && pair.substring(0, equals).equals("auth")) {
                auth = pair.substring(equals + 1);
            }
        }
        Matcher bearer = auth == null ? null : OAUTHBEARER_AUTH.matcher(auth);
        if (bearer == null || !bearer.matches() || !bearer.group("scheme").equalsIgnoreCase("bearer")) {
            return null;
        }
        return TokenClaims.claim(bearer.group("token"), SUBJECT_CLAIM);
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
