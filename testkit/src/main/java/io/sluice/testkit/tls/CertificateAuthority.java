package io.sluice.testkit.tls;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;

import javax.security.auth.x500.X500Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A certificate authority of a test's own: it writes its certificate as PEM and issues server
 * and client certificates, each written as a PEM certificate file and a PEM private key file in
 * the directory it was created in, as cert-manager would put them in a Kubernetes Secret.
 *
 * <pre>{@code
 * CertificateAuthority ca = CertificateAuthority.create(dir, "test CA");
 * IssuedCertificate server = ca.issue("server").hosts("localhost", "127.0.0.1").write();
 * IssuedCertificate expired = ca.issue("old").hosts("127.0.0.1").validUntil(Instant.now().minusSeconds(3600)).write();
 * }</pre>
 *
 * <p>Keys are EC P-256 unless {@link Issue#rsa()} asks for RSA 2048. BouncyCastle only builds
 * and encodes here; it is never registered as a JCA provider, so the code under test runs on the
 * JDK's and OpenSSL's TLS as in production.
 */
public final class CertificateAuthority {

    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());
    private static final Duration BACKDATE = Duration.ofHours(1);
    private static final Duration LIFETIME = Duration.ofDays(30);

    private final Path dir;
    private final X500Name name;
    private final KeyPair keys;
    private final X509Certificate certificate;
    private final Path certificateFile;

    private CertificateAuthority(Path dir, X500Name name, KeyPair keys, X509Certificate certificate, Path file) {
        this.dir = dir;
        this.name = name;
        this.keys = keys;
        this.certificate = certificate;
        this.certificateFile = file;
    }

    /** A new CA named {@code CN=commonName}, its certificate written to {@code dir/<slug>-ca.crt}. */
    public static CertificateAuthority create(Path dir, String commonName) {
        try {
            Files.createDirectories(dir);
            X500Name name = new X500Name("CN=" + commonName);
            KeyPair keys = ecKeys();
            Instant now = Instant.now();
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                            name,
                            nextSerial(),
                            Date.from(now.minus(BACKDATE)),
                            Date.from(now.plus(LIFETIME)),
                            name,
                            keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .addExtension(
                            Extension.subjectKeyIdentifier,
                            false,
                            extensions.createSubjectKeyIdentifier(keys.getPublic()));
            X509Certificate certificate = sign(builder, keys.getPrivate());
            Path file = dir.resolve(slug(commonName) + "-ca.crt");
            writePem(file, certificate);
            return new CertificateAuthority(dir, name, keys, certificate, file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The CA's certificate as a PEM file: what a peer trusts. */
    public Path certificateFile() {
        return certificateFile;
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** Starts a certificate named {@code CN=name}, written as {@code name.crt} and {@code name.key}. */
    public Issue issue(String name) {
        return new Issue(name);
    }

    /** The files of one issued certificate, and the certificate and key themselves. */
    public record IssuedCertificate(Path certificate, Path key, X509Certificate x509, PrivateKey privateKey) {

        /**
         * Copies both files over {@code certificateTarget} and {@code keyTarget}, each replaced in one
         * step (written aside, then moved), as a rotating issuer does.
         */
        public void copyTo(Path certificateTarget, Path keyTarget) {
            replace(certificate, certificateTarget);
            replace(key, keyTarget);
        }

        private static void replace(Path source, Path target) {
            try {
                Path aside = target.resolveSibling("." + target.getFileName() + ".new");
                Files.copy(source, aside, StandardCopyOption.REPLACE_EXISTING);
                Files.move(aside, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** How the private key file is encoded. */
    public enum KeyEncoding {
        /** {@code BEGIN PRIVATE KEY}, any algorithm. */
        PKCS8,
        /** {@code BEGIN RSA PRIVATE KEY} or {@code BEGIN EC PRIVATE KEY}: OpenSSL's traditional form, cert-manager's default. */
        TRADITIONAL
    }

    /** One certificate to issue; {@link #write()} issues it. */
    public final class Issue {
        private final String commonName;
        private X500Name subject;
        private final List<GeneralName> hosts = new ArrayList<>();
        private Instant notAfter = Instant.now().plus(LIFETIME);
        private boolean rsa;
        private KeyEncoding encoding = KeyEncoding.PKCS8;

        private Issue(String commonName) {
            this.commonName = commonName;
        }

        /** Subject alternative names: IP addresses as IP entries, anything else as DNS names. */
        public Issue hosts(String... names) {
            for (String host : names) {
                hosts.add(
                        isIpAddress(host)
                                ? new GeneralName(GeneralName.iPAddress, host)
                                : new GeneralName(GeneralName.dNSName, host));
            }
            return this;
        }

        /** When it expires; in the past for an expired certificate. Default 30 days from now. */
        public Issue validUntil(Instant instant) {
            this.notAfter = instant;
            return this;
        }

        /**
         * The certificate's subject, a distinguished name in RFC 2253 form such as
         * {@code CN=alice,OU=ServiceUsers,O=Example} (its first name is the last in the certificate,
         * as Java's and Kafka's readers take it), instead of {@code CN=name}; the files keep the name
         * {@link #issue} was given.
         */
        public Issue subject(String distinguishedName) {
            this.subject = X500Name.getInstance(new X500Principal(distinguishedName).getEncoded());
            return this;
        }

        /** An RSA 2048 key instead of EC P-256. */
        public Issue rsa() {
            this.rsa = true;
            return this;
        }

        public Issue keyEncoding(KeyEncoding keyEncoding) {
            this.encoding = keyEncoding;
            return this;
        }

        /** Issues the certificate (for both server and client use) and writes its two files. */
        public IssuedCertificate write() {
            try {
                KeyPair leaf = rsa ? rsaKeys() : ecKeys();
                Instant notBefore = notAfter.isBefore(Instant.now())
                        ? notAfter.minus(LIFETIME)
                        : Instant.now().minus(BACKDATE);
                JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
                X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                                name,
                                nextSerial(),
                                Date.from(notBefore),
                                Date.from(notAfter),
                                subject != null ? subject : new X500Name("CN=" + commonName),
                                leaf.getPublic())
                        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                        .addExtension(
                                Extension.keyUsage,
                                true,
                                new KeyUsage(KeyUsage.digitalSignature | (rsa ? KeyUsage.keyEncipherment : 0)))
                        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                            KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                        }))
                        .addExtension(
                                Extension.subjectKeyIdentifier,
                                false,
                                extensions.createSubjectKeyIdentifier(leaf.getPublic()))
                        .addExtension(
                                Extension.authorityKeyIdentifier,
                                false,
                                extensions.createAuthorityKeyIdentifier(certificate));
                if (!hosts.isEmpty()) {
                    builder.addExtension(
                            Extension.subjectAlternativeName,
                            false,
                            new GeneralNames(hosts.toArray(GeneralName[]::new)));
                }
                X509Certificate issued = sign(builder, keys.getPrivate());
                Path certificateFile = dir.resolve(slug(commonName) + ".crt");
                Path keyFile = dir.resolve(slug(commonName) + ".key");
                writePem(certificateFile, issued);
                writeKey(keyFile, leaf.getPrivate(), encoding);
                return new IssuedCertificate(certificateFile, keyFile, issued, leaf.getPrivate());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
            throws GeneralSecurityException {
        try {
            String algorithm = signer.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(signer)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static void writePem(Path file, Object object) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
                JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(object);
        }
    }

    private static void writeKey(Path file, PrivateKey key, KeyEncoding encoding) throws IOException {
        if (encoding == KeyEncoding.PKCS8) {
            writePem(file, new JcaPKCS8Generator(key, null));
        } else if (key.getAlgorithm().equals("EC")) {
            // As OpenSSL and Go write SEC1: with the curve in the key's parameters (BouncyCastle
            // would leave them out, having them in the PKCS#8 wrapper).
            PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
            ECPrivateKey sec1 = ECPrivateKey.getInstance(info.parsePrivateKey());
            writePem(
                    file,
                    new PemObject(
                            "EC PRIVATE KEY",
                            new ECPrivateKey(
                                            256,
                                            sec1.getKey(),
                                            info.getPrivateKeyAlgorithm().getParameters())
                                    .getEncoded()));
        } else {
            writePem(file, key);
        }
    }

    private static KeyPair ecKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static KeyPair rsaKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048, new SecureRandom());
        return generator.generateKeyPair();
    }

    private static BigInteger nextSerial() {
        return BigInteger.valueOf(SERIALS.incrementAndGet());
    }

    private static boolean isIpAddress(String host) {
        if (!host.matches("[0-9.]+") && !host.contains(":")) {
            return false;
        }
        try {
            InetAddress.getByName(host);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String slug(String name) {
        return name.toLowerCase().replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
