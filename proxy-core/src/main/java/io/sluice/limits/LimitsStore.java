package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The one way limits change: validate, persist, then put the new immutable document in force (the
 * server hands it to the quota engine, which live traffic picks up at once). Changes are
 * serialised, so concurrent writers never lose or tear an update; a change that fails validation
 * or cannot be persisted changes nothing.
 *
 * <p>The document lives in one of two places ({@code --limits-source}):
 * <ul>
 *   <li>a file ({@link #open}), written atomically (temp file, fsync, rename) and read again when
 *       it changes on disk ({@link LimitsFileWatch});</li>
 *   <li>a store every Sluice of a cluster shares ({@link #openShared}), versioned: a change is
 *       written with a compare-and-set, and every Sluice puts a newer version in force when its
 *       cluster sync sees one ({@link #refresh}). The file then keeps a copy of the last document,
 *       for a start while the store is down. When the store cannot be reached, the last document
 *       stays in force and changes fail with {@link LimitsUnavailableException}.</li>
 * </ul>
 */
public final class LimitsStore {

    private static final Logger log = LoggerFactory.getLogger(LimitsStore.class);

    /** Compare-and-set attempts of one change when other Sluices keep changing limits meanwhile. */
    private static final int MAX_ATTEMPTS = 5;

    private final ScopeCatalogue catalogue;
    private final LimitsFile file;
    private final SharedLimits shared;
    private final Consumer<LimitsDocument> inForce;
    private volatile LimitsDocument current;
    private volatile long version;

    private LimitsStore(Path file, ScopeCatalogue catalogue, SharedLimits shared, Consumer<LimitsDocument> inForce) {
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.file = new LimitsFile(file, catalogue);
        this.shared = shared;
        this.inForce = Objects.requireNonNull(inForce, "inForce");
    }

    /**
     * Loads {@code file} and puts it in force, or creates it with no limits when it does not exist.
     *
     * @param catalogue the scope kinds the document may hold and where they sit in its JSON form
     * @param inForce puts a document in force, e.g. {@code engine::update}; called with the loaded
     *     document now and with every later change once it is persisted
     *
     * @throws InvalidSettingsException when the file is not a valid limits document
     * @throws IOException            when it cannot be read or created
     */
    public static LimitsStore open(Path file, ScopeCatalogue catalogue, Consumer<LimitsDocument> inForce)
            throws IOException {
        Objects.requireNonNull(file, "file");
        LimitsStore store = new LimitsStore(file, catalogue, null, inForce);
        Optional<LimitsDocument> loaded = store.file.read();
        if (loaded.isEmpty()) {
            store.file.write(LimitsDocument.empty());
        }
        store.putInForce(loaded.orElse(LimitsDocument.empty()), 0);
        return store;
    }

    /**
     * Loads the document kept in {@code shared} and puts it in force. A store that holds none yet
     * is given the document of {@code cache} (so a Sluice moving from a limits file to the store
     * brings its limits along), or an empty one. A store that cannot be reached leaves the copy
     * in {@code cache} in force (or no limits) until the cluster sync reaches it.
     *
     * @param cache where the last document from the store is copied
     * @param catalogue the scope kinds the document may hold and where they sit in its JSON form
     * @throws InvalidSettingsException when the document used is not valid
     * @throws IOException when the cache cannot be read
     */
    public static LimitsStore openShared(
            SharedLimits shared, Path cache, ScopeCatalogue catalogue, Consumer<LimitsDocument> inForce)
            throws IOException {
        Objects.requireNonNull(shared, "shared");
        LimitsStore store = new LimitsStore(Objects.requireNonNull(cache, "cache"), catalogue, shared, inForce);
        try {
            Optional<VersionedLimits> stored = shared.read();
            if (stored.isPresent()) {
                store.adopt(stored.get());
            } else {
                store.seed(store.file.read().orElse(LimitsDocument.empty()), 1);
            }
        } catch (IOException e) {
            log.warn(
                    "The cluster store cannot be reached ({}); limits from {} until it can",
                    e.toString(),
                    store.file.path());
            store.putInForce(store.file.read().orElse(LimitsDocument.empty()), 0);
        }
        return store;
    }

    /** The limits in force. */
    public LimitsDocument current() {
        return current;
    }

    /** The scope kinds the document may hold, and its JSON form. */
    public ScopeCatalogue catalogue() {
        return catalogue;
    }

    /** The limits file: the document itself, or with a shared store the copy of its last document. */
    public Path file() {
        return file.path();
    }

    /** Whether the document lives in a store shared by a cluster of Sluices rather than in the file. */
    public boolean isShared() {
        return shared != null;
    }

    /** The version in the shared store of the document in force; 0 with a file, or before the store was reached. */
    public long version() {
        return version;
    }

    /** Replaces the whole document. */
    public LimitsDocument replace(LimitsDocument document) throws IOException {
        return update(old -> document);
    }

    /**
     * Applies {@code change} to the current document, persists the result and puts it in force.
     * Serialised with every other change. With a shared store, the change is based on the
     * newest version: when another Sluice changed limits meanwhile, their document is put in
     * force and {@code change} applied to it again.
     *
     * @throws LimitsUnavailableException when the shared store cannot be reached
     */
    public synchronized LimitsDocument update(UnaryOperator<LimitsDocument> change) throws IOException {
        if (shared == null) {
            LimitsDocument next = Objects.requireNonNull(change.apply(current), "change result");
            file.write(next);
            putInForce(next, 0);
            return next;
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            LimitsDocument next = Objects.requireNonNull(change.apply(current), "change result");
            long base = version;
            String json = new String(LimitsJson.write(next, catalogue), StandardCharsets.UTF_8);
            boolean written;
            try {
                written = shared.compareAndSet(base, base + 1, json);
            } catch (IOException e) {
                throw unavailable(e);
            }
            if (written) {
                putInForce(next, base + 1);
                copyToCache(next);
                return next;
            }
            try {
                Optional<VersionedLimits> stored = shared.read();
                if (stored.isPresent()) {
                    adopt(stored.get());
                } else {
                    // The store lost its document (a restart without persistence): ours goes back in as the next
                    // version.
                    version = 0;
                }
            } catch (IOException e) {
                throw unavailable(e);
            }
        }
        throw new LimitsUnavailableException(
                "the limits in the cluster store kept changing during this request; " + "nothing changed, try again",
                null);
    }

    /**
     * Reads the document again and puts it in force if it is valid and differs from the one in
     * force: the file (after an operator edited it), or the shared store.
     *
     * @throws InvalidSettingsException when it is not valid; the limits in force stay
     */
    public synchronized LimitsDocument reload() throws IOException {
        if (shared == null) {
            LimitsDocument loaded = file.read().orElseThrow(() -> new IOException(file.path() + " does not exist"));
            if (!loaded.equals(current)) {
                putInForce(loaded, 0);
            }
            return loaded;
        }
        Optional<VersionedLimits> stored = shared.read();
        if (stored.isPresent()) {
            adopt(stored.get());
        }
        return current;
    }

    /**
     * Catches up with the shared store, whose version the cluster sync just read: puts a
     * different version in force, or gives a store that lost its document (0) the one in force.
     * Does nothing with a file, or when the version is the one in force.
     */
    public synchronized void refresh(long storeVersion) throws IOException {
        // Version 0 on both sides: this Sluice started while the store was down and the store is empty.
        if (shared == null || (storeVersion == version && storeVersion != 0)) {
            return;
        }
        if (storeVersion == 0) {
            log.warn("The cluster store holds no limits document; giving it the one in force");
            seed(current, version + 1);
            return;
        }
        reload();
    }

    /** Gives a store that holds no document {@code document} as {@code as}, or takes the one another Sluice gave it first. */
    private void seed(LimitsDocument document, long as) throws IOException {
        if (shared.compareAndSet(0, as, new String(LimitsJson.write(document, catalogue), StandardCharsets.UTF_8))) {
            putInForce(document, as);
            copyToCache(document);
            return;
        }
        Optional<VersionedLimits> stored = shared.read();
        if (stored.isPresent()) {
            adopt(stored.get());
        }
    }

    /** Puts a version from the store in force, unless it is the one in force; an invalid one is logged and left out. */
    private void adopt(VersionedLimits stored) throws IOException {
        if (stored.version() == version && current != null) {
            return;
        }
        LimitsDocument document;
        try {
            document = file.parse(
                    stored.json().getBytes(StandardCharsets.UTF_8),
                    "in the cluster store, version " + stored.version());
        } catch (InvalidSettingsException e) {
            if (current == null) {
                throw e;
            }
            log.error("Ignoring limits version {} from the cluster store: {}", stored.version(), e.getMessage());
            version = stored.version();
            return;
        }
        if (!document.equals(current)) {
            putInForce(document, stored.version());
            copyToCache(document);
        }
        version = stored.version();
    }

    private void copyToCache(LimitsDocument document) {
        try {
            file.write(document);
        } catch (IOException e) {
            log.warn("Cannot copy the limits to {}: {}", file.path(), e.toString());
        }
    }

    private static LimitsUnavailableException unavailable(IOException e) {
        return new LimitsUnavailableException(
                "the cluster store that holds the limits cannot be reached (" + e.getMessage() + "); nothing changed",
                e);
    }

    private void putInForce(LimitsDocument document, long version) {
        current = document;
        this.version = version;
        inForce.accept(document);
    }
}
