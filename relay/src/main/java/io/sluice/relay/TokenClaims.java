package io.sluice.relay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Reads one claim of a JSON Web Token (a Pulsar token, a Kafka OAUTHBEARER token) without
 * verifying it: the broker verifies the token, and Sluice only needs to know whose it is, once
 * the broker has accepted it. Nothing of the token is kept or logged. Stateless and thread-safe.
 */
public final class TokenClaims {

    /** Longer tokens are not read: no identity provider writes one, and reading costs. */
    public static final int MAX_TOKEN_LENGTH = 64 * 1024;

    private static final JsonFactory JSON = new JsonFactory();

    private TokenClaims() {}

    /**
     * The string claim {@code name} of the payload of {@code token} ({@code header.payload.signature},
     * each part base64url as JWS compact form has them; the signature may be empty, as in an
     * unsecured token); {@code null} when the token cannot be read, has no such claim, or the
     * claim is not a non-empty string.
     */
    public static String claim(String token, String name) {
        if (token == null || token.length() > MAX_TOKEN_LENGTH) {
            return null;
        }
        int firstDot = token.indexOf('.');
        int secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
        if (secondDot < 0) {
            return null;
        }
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(stripPadding(token.substring(firstDot + 1, secondDot)));
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
        return topLevelString(payload, name);
    }

    /** The claim from the bytes of a token as a client sent them (UTF-8); see {@link #claim(String, String)}. */
    public static String claim(byte[] token, String name) {
        return token == null || token.length > MAX_TOKEN_LENGTH
                ? null
                : claim(new String(token, StandardCharsets.UTF_8), name);
    }

    private static String stripPadding(String part) {
        int end = part.length();
        while (end > 0 && part.charAt(end - 1) == '=') {
            end--;
        }
        return part.substring(0, end);
    }

    private static String topLevelString(byte[] json, String name) {
        try (JsonParser parser = JSON.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String found = null;
            for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (name.equals(field) && value == JsonToken.VALUE_STRING) {
                    found = parser.getText();
                } else if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    parser.skipChildren();
                }
            }
            return found == null || found.isEmpty() ? null : found;
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }
}
