package io.sluice.relay.tls;

import java.nio.file.Path;

/**
 * A certificate, key or CA file Sluice cannot use: missing, unreadable, not PEM, an encrypted or
 * unknown key, a key that does not belong to its certificate, an expired certificate. The message
 * names the file and the problem and never quotes the file's content.
 */
public final class TlsFileException extends RuntimeException {

    private final Path file;

    public TlsFileException(Path file, String problem) {
        this(file, problem, null);
    }

    public TlsFileException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The file at fault. */
    public Path file() {
        return file;
    }
}
