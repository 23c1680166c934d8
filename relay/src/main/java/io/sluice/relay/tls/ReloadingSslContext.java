package io.sluice.relay.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A TLS context that is rebuilt from its files when they change (cert-manager renewing a
 * certificate, a CA bundle updated), without a restart: {@link #reload()} builds a new context
 * and swaps it in; connections opened from then on use it, open ones keep the session they have.
 * A file that cannot be used keeps the current context: one log line names the file and the
 * problem, and whoever loaded the context counts it ({@code sluice_tls_reload_failures_total}).
 *
 * <p>Read from any thread (an event loop creates a handler per connection); reloaded from the
 * {@link FileWatch} thread.
 */
public final class ReloadingSslContext {

    private static final Logger log = LoggerFactory.getLogger(ReloadingSslContext.class);

    private final String role;
    private final TlsSource source;
    private final SslProvider provider;
    private final Runnable onReloadFailure;
    private volatile SslContext current;

    private ReloadingSslContext(
            String role, TlsSource source, SslProvider provider, Runnable onReloadFailure, SslContext first) {
        this.role = role;
        this.source = source;
        this.provider = provider;
        this.onReloadFailure = onReloadFailure;
        this.current = first;
    }

    /**
     * Builds the first context from {@code source}, on OpenSSL when available.
     *
     * @param role            what the context is for, in log lines, e.g. {@code the Pulsar and Kafka ports}
     * @param onReloadFailure run on the reloading thread each time new files cannot be used, to
     *                        count the failure for every port that uses the context
     * @throws TlsFileException when a file cannot be used: Sluice must not start without it
     */
    public static ReloadingSslContext load(String role, TlsSource source, Runnable onReloadFailure) {
        return load(role, source, TlsProvider.get(), onReloadFailure);
    }

    /** As {@link #load(String, TlsSource, Runnable)}, on a chosen TLS implementation. */
    public static ReloadingSslContext load(
            String role, TlsSource source, SslProvider provider, Runnable onReloadFailure) {
        TlsSource.Built built = source.build(provider);
        log.info("TLS for {}: {}", role, built.summary());
        return new ReloadingSslContext(
                Objects.requireNonNull(role, "role"),
                source,
                provider,
                Objects.requireNonNull(onReloadFailure, "onReloadFailure"),
                built.context());
    }

    /**
     * Builds a new context from the files as they are now and uses it for new connections; when a
     * file cannot be used, keeps the current one, logs why and counts the failure.
     *
     * @return whether the new context is in use
     */
    public boolean reload() {
        try {
            TlsSource.Built built = source.build(provider);
            current = built.context();
            log.info("TLS for {} reloaded: {}", role, built.summary());
            return true;
        } catch (TlsFileException e) {
            onReloadFailure.run();
            log.warn(
                    "TLS for {}: keeping the current files in use, the new ones cannot be used: {}",
                    role,
                    e.getMessage());
            return false;
        }
    }

    /** A handler for a connection Sluice accepts, from the current context; the caller bounds its handshake. */
    public SslHandler newServerHandler(ByteBufAllocator alloc) {
        SslHandler handler = current.newHandler(alloc);
        handler.setHandshakeTimeoutMillis(0);
        return handler;
    }

    /**
     * A handler for a connection Sluice opens to {@code host:port}, from the current context: it
     * sends {@code host} as SNI and verifies the peer's certificate names it.
     */
    public SslHandler newClientHandler(ByteBufAllocator alloc, String host, int port, long handshakeTimeoutMillis) {
        SslHandler handler = current.newHandler(alloc, host, port);
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return handler;
    }

    /** The files to watch; {@link #reload()} when one changes. */
    public List<Path> files() {
        return source.files();
    }

    /** The context new connections get now. */
    public SslContext current() {
        return current;
    }
}
