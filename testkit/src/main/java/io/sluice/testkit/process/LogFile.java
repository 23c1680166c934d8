package io.sluice.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/** Reading a child's log: its tail for failure messages, and lines written since a launch. */
public final class LogFile {

    /** How many lines of a child's log a failure message quotes. */
    public static final int TAIL_LINES = 60;

    /** Enough for {@link #TAIL_LINES} lines of any log, without reading a long log whole. */
    private static final long TAIL_BYTES = 64 * 1024;

    private LogFile() {}

    /** The size of {@code file} in bytes, 0 if it does not exist yet. */
    public static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first line after byte {@code offset} of {@code file} that contains {@code text}, if any;
     * a line still being written (no line end yet) counts.
     */
    public static Optional<String> lineContaining(Path file, long offset, String text) {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return read(file, offset)
                    .lines()
                    .filter(line -> line.contains(text))
                    .findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The last {@link #TAIL_LINES} lines of {@code file}, introduced for appending to a failure
     * message: {@code "; last lines of FILE:\n..."}.
     */
    public static String tail(Path file) {
        try {
            List<String> lines = read(file, Math.max(0, Files.size(file) - TAIL_BYTES))
                    .lines()
                    .toList();
            List<String> tail = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
            return "; last lines of " + file + ":\n" + String.join("\n", tail);
        } catch (IOException e) {
            return "; no log at " + file + " (" + e + ")";
        }
    }

    /** The bytes of {@code file} from {@code offset} to its current end, decoded leniently. */
    private static String read(Path file, long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = channel.size() - offset;
            if (length <= 0) {
                return "";
            }
            ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(length));
            while (bytes.hasRemaining() && channel.read(bytes, offset + bytes.position()) > 0) {
                // Read up to the end seen above; the child may be appending meanwhile.
            }
            return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
        }
    }
}
