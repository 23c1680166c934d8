package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Puts the limits file in force again when it changes on disk, so that limits managed as files
 * (GitOps, a Kubernetes ConfigMap) apply without the REST API. Polled: {@link #check()} reads the
 * file through any symbolic links and compares its bytes with the last ones seen, so the atomic
 * swap of a ConfigMap's {@code ..data} link is seen like an edit in place, whatever the file
 * system's timestamp resolution. A file that is not valid is logged once and the limits in force
 * stay.
 */
public final class LimitsFileWatch {

    private static final Logger log = LoggerFactory.getLogger(LimitsFileWatch.class);

    private final LimitsStore store;
    private byte[] last;

    /** Watches the file of {@code store}, whose document is taken to match the file as it is now. */
    public LimitsFileWatch(LimitsStore store) {
        this.store = Objects.requireNonNull(store, "store");
        if (store.isShared()) {
            throw new IllegalArgumentException("the limits live in the cluster store, not in " + store.file());
        }
        this.last = read(store.file());
    }

    /** Reloads the file if it changed since the last check; returns whether other limits are now in force. Not thread-safe. */
    public boolean check() {
        Path file = store.file();
        byte[] now = read(file);
        if (now == null || Arrays.equals(now, last)) {
            return false;
        }
        last = now;
        LimitsDocument before = store.current();
        try {
            store.reload();
        } catch (InvalidSettingsException e) {
            log.warn("Limits file {} changed but is not valid; the limits in force stay: {}", file, e.getMessage());
            return false;
        } catch (IOException e) {
            log.warn("Limits file {} changed but cannot be read; the limits in force stay: {}", file, e.toString());
            return false;
        }
        // Sluice's own writes change the file too, to what is in force already.
        if (store.current() == before) {
            return false;
        }
        log.info("Limits reloaded from {}", file);
        return true;
    }

    /** The file's bytes; null while it cannot be read (absent, or half-swapped). */
    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            log.debug("Cannot read {}", file, e);
            return null;
        }
    }
}
