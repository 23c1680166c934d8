package io.sluice.relay.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Certificates and private keys read from PEM files, as cert-manager and OpenSSL write them.
 *
 * <p>Keys may be PKCS#8 ({@code BEGIN PRIVATE KEY}: RSA, EC, Ed25519 or Ed448), PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}, cert-manager's default encoding) or SEC1
 * ({@code BEGIN EC PRIVATE KEY}); the last two are turned into PKCS#8 by {@link Pkcs8}. Encrypted
 * keys are refused: the file's permissions (a Kubernetes Secret) protect it, and a password would
 * be one more secret on a command line. Errors name the file, never its content.
 */
public final class PemFiles {

    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS");

    private PemFiles() {}

    /** Every {@code CERTIFICATE} block of {@code file}, in order (a chain starts with its leaf). */
    public static List<X509Certificate> certificates(Path file) {
        List<X509Certificate> certificates = new ArrayList<>();
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("the JDK has no X.509 certificate factory", e);
        }
        for (Block block : blocks(file)) {
            if (!block.type().equals("CERTIFICATE")) {
                continue;
            }
            try {
                certificates.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(block.der())));
            } catch (CertificateException e) {
                throw new TlsFileException(
                        file, "certificate " + (certificates.size() + 1) + " is not a valid X.509 certificate", e);
            }
        }
        if (certificates.isEmpty()) {
            throw new TlsFileException(file, "no PEM certificate (-----BEGIN CERTIFICATE-----) in it");
        }
        return certificates;
    }

    /** The one private key of {@code file}. */
    public static PrivateKey privateKey(Path file) {
        PrivateKey key = null;
        for (Block block : blocks(file)) {
            byte[] pkcs8 = switch (block.type()) {
                case "PRIVATE KEY" -> block.der();
                case "RSA PRIVATE KEY" -> Pkcs8.fromPkcs1(block.der());
                case "EC PRIVATE KEY" -> Pkcs8.fromSec1(block.der(), file);
                case "ENCRYPTED PRIVATE KEY" ->
                    throw new TlsFileException(
                            file,
                            "the private key is encrypted; give Sluice the key unencrypted and protect the file instead");
                default -> null;
            };
            if (pkcs8 == null) {
                continue;
            }
            if (key != null) {
                throw new TlsFileException(file, "more than one private key in it");
            }
            key = decode(pkcs8, file);
            Arrays.fill(pkcs8, (byte) 0);
        }
        if (key == null) {
            throw new TlsFileException(
                    file,
                    "no PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA/EC PRIVATE KEY-----) in it");
        }
        return key;
    }

    private static PrivateKey decode(byte[] pkcs8, Path file) {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(pkcs8);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException notThisAlgorithm) {
                // Try the next one: PKCS#8 names its algorithm by OID, the JDK wants a name.
            }
        }
        throw new TlsFileException(file, "the private key is not an RSA, EC, Ed25519 or Ed448 key Java can read");
    }

    private record Block(String type, byte[] der) {}

    private static List<Block> blocks(Path file) {
        String text;
        try {
            // Latin-1 decodes any bytes; a binary file then simply holds no PEM block.
            text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (NoSuchFileException e) {
            throw new TlsFileException(file, "no such file");
        } catch (IOException e) {
            throw new TlsFileException(file, "cannot read it (" + e.getClass().getSimpleName() + ")");
        }
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(text);
        while (matcher.find()) {
            try {
                blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
            } catch (IllegalArgumentException e) {
                throw new TlsFileException(file, "a " + matcher.group(1) + " block is not valid base64");
            }
        }
        if (blocks.isEmpty()) {
            throw new TlsFileException(file, "not a PEM file (no -----BEGIN ...----- block)");
        }
        return blocks;
    }
}
