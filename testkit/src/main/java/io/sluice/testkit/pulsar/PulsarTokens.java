package io.sluice.testkit.pulsar;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;

/** Tokens for a broker with {@link PulsarBroker.Builder#tokenAuthentication}: HS256 JWTs, as {@code pulsar tokens create} makes them. */
public final class PulsarTokens {

    private PulsarTokens() {}

    /** A token whose {@code sub} is {@code subject}, signed with {@code secretKey}, without expiry. */
    public static String hs256(byte[] secretKey, String subject) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String signed = url.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + url.encodeToString(("{\"sub\":\"" + subject + "\"}").getBytes(StandardCharsets.UTF_8));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secretKey, "HmacSHA256"));
            return signed + "." + url.encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
