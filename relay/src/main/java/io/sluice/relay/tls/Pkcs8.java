package io.sluice.relay.tls;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Wraps OpenSSL's traditional private key encodings in PKCS#8, the one form the JDK's key factories
 * read: PKCS#1 ({@code RSAPrivateKey}, RFC 8017) and SEC1 ({@code ECPrivateKey}, RFC 5915). Only
 * the few DER elements needed are read and written here.
 */
final class Pkcs8 {

    private static final int INTEGER = 0x02;
    private static final int OCTET_STRING = 0x04;
    private static final int NULL = 0x05;
    private static final int OBJECT_IDENTIFIER = 0x06;
    private static final int SEQUENCE = 0x30;
    private static final int EC_PARAMETERS = 0xA0;

    /** 1.2.840.113549.1.1.1, rsaEncryption. */
    private static final byte[] RSA_ENCRYPTION = {
        0x2A, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xF7, 0x0D, 0x01, 0x01, 0x01
    };
    /** 1.2.840.10045.2.1, id-ecPublicKey. */
    private static final byte[] EC_PUBLIC_KEY = {0x2A, (byte) 0x86, 0x48, (byte) 0xCE, 0x3D, 0x02, 0x01};

    private Pkcs8() {}

    /** PKCS#8 {@code PrivateKeyInfo} holding a PKCS#1 RSA key. */
    static byte[] fromPkcs1(byte[] pkcs1) {
        return privateKeyInfo(der(SEQUENCE, der(OBJECT_IDENTIFIER, RSA_ENCRYPTION), der(NULL)), pkcs1);
    }

    /** PKCS#8 {@code PrivateKeyInfo} holding a SEC1 EC key, its curve taken from the key's parameters. */
    static byte[] fromSec1(byte[] sec1, Path file) {
        byte[] curve = curveOf(sec1);
        if (curve == null) {
            throw new TlsFileException(file, "the EC private key does not name its curve");
        }
        return privateKeyInfo(
                der(SEQUENCE, der(OBJECT_IDENTIFIER, EC_PUBLIC_KEY), der(OBJECT_IDENTIFIER, curve)), sec1);
    }

    private static byte[] privateKeyInfo(byte[] algorithm, byte[] key) {
        return der(SEQUENCE, der(INTEGER, new byte[] {0}), algorithm, der(OCTET_STRING, key));
    }

    /**
     * The curve OID of {@code ECPrivateKey ::= SEQUENCE { version, privateKey OCTET STRING,
     * parameters [0] OID OPTIONAL, publicKey [1] OPTIONAL }}, or null when absent or malformed.
     */
    private static byte[] curveOf(byte[] sec1) {
        Element key = Element.at(sec1, 0);
        if (key == null || key.tag != SEQUENCE) {
            return null;
        }
        int offset = key.valueStart;
        while (offset < key.end()) {
            Element field = Element.at(sec1, offset);
            if (field == null || field.end() > key.end()) {
                return null;
            }
            if (field.tag == EC_PARAMETERS) {
                Element oid = Element.at(sec1, field.valueStart);
                return oid == null || oid.tag != OBJECT_IDENTIFIER || oid.end() > field.end()
                        ? null
                        : Arrays.copyOfRange(sec1, oid.valueStart, oid.end());
            }
            offset = field.end();
        }
        return null;
    }

    /** One DER element: its tag, where its value starts and how long it is. */
    private record Element(int tag, int valueStart, int length) {

        int end() {
            return valueStart + length;
        }

        /** The element starting at {@code offset}, or null when it does not fit in {@code der}. */
        static Element at(byte[] der, int offset) {
            if (offset + 2 > der.length) {
                return null;
            }
            int tag = der[offset] & 0xFF;
            int first = der[offset + 1] & 0xFF;
            int position = offset + 2;
            long length = first;
            if (first > 0x80) {
                int octets = first & 0x7F;
                if (octets > 4 || position + octets > der.length) {
                    return null;
                }
                length = 0;
                for (int i = 0; i < octets; i++) {
                    length = (length << 8) | (der[position++] & 0xFF);
                }
            } else if (first == 0x80) {
                return null; // indefinite length is not DER
            }
            if (position + length > der.length) {
                return null;
            }
            return new Element(tag, position, (int) length);
        }
    }

    private static byte[] der(int tag, byte[]... parts) {
        ByteArrayOutputStream value = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            value.writeBytes(part);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int length = value.size();
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(value.toByteArray());
        return out.toByteArray();
    }
}
