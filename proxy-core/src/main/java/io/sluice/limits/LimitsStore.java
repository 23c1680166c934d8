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
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The one way limits change: validate, persist atomically (temp file, fsync, rename), then put the
 * new immutable document in force (the server hands it to the quota engine, which live traffic
 * picks up at once). Changes are serialised, so concurrent writers never lose or tear an update;
 * a change that fails validation or cannot be written changes nothing.
 */
public final class LimitsStore {

    private final Path file;
    private final Consumer<LimitsDocument> inForce;
    private volatile LimitsDocument current;

    private LimitsStore(Path file, Consumer<LimitsDocument> inForce) {
        this.file = file;
        this.inForce = inForce;
    }

    /**
     * Loads {@code file} and puts it in force, or creates it with no limits when it does not exist.
     *
     * @param inForce puts a document in force, e.g. {@code engine::update}; called with the loaded
     *     document now and with every later change once it is persisted
     *
     * @throws InvalidSettingsException when the file is not a valid limits document
     * @throws IOException            when it cannot be read or created
     */
    public static LimitsStore open(Path file, Consumer<LimitsDocument> inForce) throws IOException {
        Objects.requireNonNull(file, "file");
        LimitsStore store = new LimitsStore(file.toAbsolutePath(), Objects.requireNonNull(inForce, "inForce"));
        LimitsDocument loaded;
        try {
            loaded = parse(store.file, Files.readAllBytes(store.file));
        } catch (NoSuchFileException e) {
            loaded = LimitsDocument.empty();
            store.persist(loaded);
        }
        store.putInForce(loaded);
        return store;
    }

    /** The limits in force. */
    public LimitsDocument current() {
        return current;
    }

    public Path file() {
        return file;
    }

    /** Replaces the whole document. */
    public LimitsDocument replace(LimitsDocument document) throws IOException {
        return update(old -> document);
    }

    /**
     * Applies {@code change} to the current document, persists the result and puts it in force.
     * Serialised with every other change.
     */
    public synchronized LimitsDocument update(UnaryOperator<LimitsDocument> change) throws IOException {
        LimitsDocument next = Objects.requireNonNull(change.apply(current), "change result");
        persist(next);
        putInForce(next);
        return next;
    }

    /** Reads the file again (after an operator edited it) and puts it in force if valid. */
    public synchronized LimitsDocument reload() throws IOException {
        LimitsDocument loaded = parse(file, Files.readAllBytes(file));
        putInForce(loaded);
        return loaded;
    }

    private void putInForce(LimitsDocument document) {
        current = document;
        inForce.accept(document);
    }

    private static LimitsDocument parse(Path file, byte[] bytes) {
        try {
            return LimitsJson.parseDocument(bytes);
        } catch (InvalidSettingsException e) {
            throw new InvalidSettingsException(e.path(), e.problem() + " (in " + file + ")", e);
        }
    }

    private void persist(LimitsDocument document) throws IOException {
        byte[] json = LimitsJson.write(document);
        Path dir = file.getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(json);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
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
