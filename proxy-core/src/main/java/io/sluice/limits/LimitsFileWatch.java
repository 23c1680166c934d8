package io.sluice.limits;

import io.sluice.settings.InvalidSettingsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the limits file in force again when it changes on disk, so that limits managed as files
 * (GitOps, a Kubernetes ConfigMap) apply without the REST API. Polled: {@link #check()} compares
 * the file's identity, size and modification time, following symbolic links, so the atomic swap
 * of a ConfigMap's {@code ..data} link is seen like an edit in place. A file that is not valid is
 * logged once and the limits in force stay.
 */
public final class LimitsFileWatch {

    private static final Logger log = LoggerFactory.getLogger(LimitsFileWatch.class);

    private final LimitsStore store;
    private Stamp last;

    /** Watches the file of {@code store}, whose document is taken to match the file as it is now. */
    public LimitsFileWatch(LimitsStore store) {
        this.store = Objects.requireNonNull(store, "store");
        if (store.isShared()) {
            throw new IllegalArgumentException("the limits live in the cluster store, not in " + store.file());
        }
        this.last = stamp(store.file());
    }

    /** Reloads the file if it changed since the last check; returns whether it did. Not thread-safe. */
    public boolean check() {
        Path file = store.file();
        Stamp now = stamp(file);
        if (now == null || now.equals(last)) {
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

    /** What tells one version of the file from another; null while it does not exist. */
    private static Stamp stamp(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(attributes.fileKey(), attributes.size(), attributes.lastModifiedTime());
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            log.debug("Cannot read the attributes of {}", file, e);
            return null;
        }
    }

    private record Stamp(Object fileKey, long size, FileTime modified) {
    }
}
