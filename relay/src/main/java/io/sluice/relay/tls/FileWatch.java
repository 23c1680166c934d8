package io.sluice.relay.tls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Notices when files change and says so, on a daemon thread of its own: every interval it reads
 * each watched group of files and, when their content differs from the last look, runs the
 * group's callback.
 *
 * <p>It compares content rather than waiting for file system events, because a Kubernetes Secret
 * volume changes by swapping a symbolic link to a new directory: the file's own path never sees
 * an event, and its modification time may be the same. Reading a few small files once a second
 * costs nothing worth measuring. Only a digest of each content is kept, never the content.
 */
public final class FileWatch implements AutoCloseable {

    /** How often files are looked at unless the constructor says otherwise. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(FileWatch.class);

    private final ScheduledExecutorService thread;
    private final List<Group> groups = new CopyOnWriteArrayList<>();

    public FileWatch(Duration interval) {
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-file-watch");
            t.setDaemon(true);
            return t;
        });
        long nanos = interval.toNanos();
        thread.scheduleWithFixedDelay(this::check, nanos, nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Runs {@code onChange} on the watch's thread each time the content of one of {@code files}
     * differs from what it was when last looked at; the first look is now. A file that disappears
     * or becomes unreadable is a change too: the callback finds out it cannot use it.
     */
    public void watch(List<Path> files, Runnable onChange) {
        if (!files.isEmpty()) {
            groups.add(new Group(List.copyOf(files), onChange, fingerprint(files)));
        }
    }

    private void check() {
        for (Group group : groups) {
            byte[] now = fingerprint(group.files);
            if (!Arrays.equals(now, group.seen)) {
                group.seen = now;
                try {
                    group.onChange.run();
                } catch (RuntimeException e) {
                    log.warn("Handling a change of {} failed", group.files, e);
                }
            }
        }
    }

    /** A digest of the files' contents (or of their absence), in order. */
    private static byte[] fingerprint(List<Path> files) {
        MessageDigest digest = sha256();
        for (Path file : files) {
            digest.update(file.toString().getBytes(StandardCharsets.UTF_8));
            try {
                byte[] content = Files.readAllBytes(file);
                digest.update((byte) 1);
                digest.update(content);
            } catch (IOException e) {
                digest.update((byte) 0);
                digest.update(e.getClass().getName().getBytes(StandardCharsets.UTF_8));
            }
        }
        return digest.digest();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256.
            throw new IllegalStateException(e);
        }
    }

    /** Stops looking; callbacks running now finish. */
    @Override
    public void close() {
        thread.shutdownNow();
    }

    /** Files watched together: a certificate and its key change as a pair. */
    private static final class Group {
        final List<Path> files;
        final Runnable onChange;
        /** Only touched on the watch's thread after construction. */
        volatile byte[] seen;

        Group(List<Path> files, Runnable onChange, byte[] seen) {
            this.files = files;
            this.onChange = onChange;
            this.seen = seen;
        }
    }
}
