package io.sluice.relay.tls;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;

/**
 * Whether a private key belongs to a certificate's public key: it signs a random challenge that
 * the public key must verify. Catches a rotation that replaced the certificate but not yet the
 * key (or the other way round) before any client sees a broken handshake.
 */
final class KeyPairCheck {

    private static final SecureRandom RANDOM = new SecureRandom();

    private KeyPairCheck() {}

    static boolean matches(PrivateKey key, PublicKey publicKey) {
        if (!key.getAlgorithm().equals(publicKey.getAlgorithm())) {
            return false;
        }
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            // RSASSA-PSS needs parameters to sign; the TLS handshake itself will catch a mismatch.
            default -> null;
        };
        if (algorithm == null) {
            return true;
        }
        try {
            byte[] challenge = new byte[32];
            RANDOM.nextBytes(challenge);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(challenge);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(challenge);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
