package io.sluice.admin.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The bearer token {@code /api/v1/**} requires: fixed at start ({@code --admin-token}), or read
 * from a file ({@code --admin-token-file}, a Kubernetes Secret) and read again by {@link #reload()}
 * when the file changes, so a rotated token is in force without a restart and the old one stops
 * working. Only the token's SHA-256 digest is kept; no log line or message ever holds the token.
 */
public final class AdminToken {

    /** A token is a line of text; anything longer is not the file meant. */
    private static final int MAX_FILE_BYTES = 64 * 1024;

    private static final Logger log = LoggerFactory.getLogger(AdminToken.class);

    private final Path file;
    private volatile byte[] digest;

    private AdminToken(Path file, byte[] digest) {
        this.file = file;
        this.digest = digest;
    }

    /** A token that never changes. */
    public static AdminToken of(String token) {
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("the admin token must not be blank; leave it unset for none");
        }
        return new AdminToken(null, digest(token.strip()));
    }

    /**
     * The token in {@code file}: its content without leading and trailing white space (a Secret
     * written with {@code echo} ends in a newline).
     *
     * @throws IllegalArgumentException when the file cannot be read or holds no token
     */
    public static AdminToken fromFile(Path file) {
        return new AdminToken(Objects.requireNonNull(file, "file"), digest(read(file)));
    }

    /**
     * Reads the file again; a file that cannot be read or holds no token keeps the token in force
     * and logs why.
     *
     * @return whether the file's token is in force now
     */
    public boolean reload() {
        if (file == null) {
            return true;
        }
        try {
            byte[] next = digest(read(file));
            if (!MessageDigest.isEqual(next, digest)) {
                digest = next;
                log.info("Admin token replaced from {}", file);
            }
            return true;
        } catch (IllegalArgumentException e) {
            log.warn("Admin token: keeping the one in force: {}", e.getMessage());
            return false;
        }
    }

    /** The file the token is read from, or null for a fixed token. */
    public Path file() {
        return file;
    }

    /** Whether {@code presented} is the token, compared in constant time. */
    boolean matches(String presented) {
        return MessageDigest.isEqual(digest, digest(presented));
    }

    private static String read(Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(file + ": larger than " + MAX_FILE_BYTES + " bytes, not a token");
            }
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (token.isEmpty()) {
                throw new IllegalArgumentException(file + ": empty, no token in it");
            }
            return token;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    file + ": cannot read it (" + e.getClass().getSimpleName() + ")");
        }
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256.
            throw new IllegalStateException(e);
        }
    }
}
