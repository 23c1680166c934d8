package io.sluice.relay.tls;

import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslProvider;

/**
 * Which TLS implementation Sluice's contexts use: OpenSSL (BoringSSL, from
 * {@code netty-tcnative-boringssl-static}) when its native library loads on this platform, which
 * is faster and lighter on the heap, the JDK's otherwise.
 */
public final class TlsProvider {

    /** TLS 1.3 and 1.2 only: older versions have known weaknesses and no client of Pulsar 4 needs them. */
    public static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private TlsProvider() {}

    public static SslProvider get() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /** For the startup log, e.g. {@code OpenSSL (BoringSSL)}. */
    public static String describe() {
        if (OpenSsl.isAvailable()) {
            return "OpenSSL (" + OpenSsl.versionString() + ")";
        }
        Throwable cause = OpenSsl.unavailabilityCause();
        return "the JDK's TLS (OpenSSL unavailable: " + (cause == null ? "unknown" : cause.getMessage()) + ")";
    }
}
