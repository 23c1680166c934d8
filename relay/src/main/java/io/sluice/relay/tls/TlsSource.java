package io.sluice.relay.tls;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;

import java.nio.file.Path;
import java.util.List;

/** The files a TLS context is built from, and how it is built from them. */
public interface TlsSource {

    /** A context built from the files as they are now, and what it holds in a few words for the log. */
    record Built(SslContext context, String summary) {}

    /**
     * Reads the files and builds a context on {@code provider}.
     *
     * @throws TlsFileException when a file cannot be used
     */
    Built build(SslProvider provider);

    /** The files read, to watch for changes. */
    List<Path> files();
}
