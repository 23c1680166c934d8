package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * A limits document in a file: read and checked, or written atomically (temp file, fsync,
 * rename), so that a crash leaves the old document or the new one, never a torn one.
 */
final class LimitsFile {

    private final Path path;
    private final ScopeCatalogue catalogue;

    LimitsFile(Path path, ScopeCatalogue catalogue) {
        this.path = path.toAbsolutePath();
        this.catalogue = catalogue;
    }

    Path path() {
        return path;
    }

    /**
     * @return empty when the file does not exist
     * @throws InvalidSettingsException when it is not a valid limits document, naming the file
     */
    Optional<LimitsDocument> read() throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(parse(bytes, "in " + path));
    }

    /** Parses a document, naming where it came from in the error. */
    LimitsDocument parse(byte[] bytes, String where) {
        try {
            return LimitsJson.parseDocument(bytes, catalogue);
        } catch (InvalidSettingsException e) {
            throw new InvalidSettingsException(e.path(), e.problem() + " (" + where + ")", e);
        }
    }

    void write(LimitsDocument document) throws IOException {
        byte[] json = LimitsJson.write(document, catalogue);
        Path dir = path.getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, path.getFileName().toString(), ".tmp");
        try {
            try (FileChannel channel =
                    FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(json);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory(dir);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Makes the rename itself durable; not every file system lets a directory be opened, hence best effort. */
    private static void forceDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // The rename is atomic already; only its durability across a power cut is weaker.
        }
    }
}
