package io.sluice.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The record of one running child process, so that whoever finds its owner gone can end it: the
 * file {@code <pid>.pid} in {@link #directory()} holds one line,
 * {@code <pid> <owner pid> <dir> <marker>}. {@code dir} is the scratch directory to delete with the
 * child, or {@code -} for none; {@code marker} is a string on the child's command line that tells
 * it from a later process given the same PID. The file is removed when the child exits.
 *
 * @param pid    the child's PID
 * @param owner  the PID of the JVM that started it
 * @param dir    its scratch directory, or {@link #NO_DIRECTORY}
 * @param marker a string its command line contains, without spaces
 */
public record PidFile(long pid, long owner, String dir, String marker) {

    /** The {@code dir} of a child that has no scratch directory. */
    public static final String NO_DIRECTORY = "-";

    /** Records a child of this JVM. */
    static PidFile of(long pid, Path scratchDirectory, String marker) {
        return new PidFile(
                pid,
                ProcessHandle.current().pid(),
                scratchDirectory == null ? NO_DIRECTORY : scratchDirectory.toString(),
                marker);
    }

    /**
     * The directory holding one {@code <pid>.pid} file per running child on this machine,
     * {@code ${java.io.tmpdir}/sluice-testkit}; {@code .ci/run} reaps the same files.
     */
    public static Path directory() {
        return Path.of(System.getProperty("java.io.tmpdir"), "sluice-testkit");
    }

    /** Reads a PID file; empty if it is incomplete or gone (its child exited meanwhile). */
    static Optional<PidFile> read(Path file) throws IOException {
        String[] fields;
        try {
            fields = Files.readString(file).trim().split(" ", 4);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (fields.length < 4) {
            return Optional.empty();
        }
        return Optional.of(new PidFile(Long.parseLong(fields[0]), Long.parseLong(fields[1]), fields[2], fields[3]));
    }

    /** The file of this record. */
    public Path path() {
        return directory().resolve(pid + ".pid");
    }

    /** Writes the file whole (through a rename), so that a reader never sees half a line. */
    void write() {
        try {
            Files.createDirectories(directory());
            Path partial = directory().resolve(pid + ".pid.partial");
            Files.writeString(partial, pid + " " + owner + " " + dir + " " + marker + "\n");
            Files.move(partial, path(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the PID of a child process in " + directory(), e);
        }
    }

    /** Removes the file if it still is this record, not that of a later child given the same PID. */
    void remove() {
        try {
            if (read(path()).filter(this::equals).isPresent()) {
                Files.deleteIfExists(path());
            }
        } catch (IOException | RuntimeException e) {
            // The reaper removes a stale file in time; a child's exit must not fail over it.
            System.err.println("sluice testkit: could not remove " + path() + ": " + e);
        }
    }
}
