package io.sluice.testkit.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A child that did not become ready: it exited first, or had not in time. The message is written for
 * a person at a terminal (the demo and the bench print it alone, with no stack trace): what did not
 * start, where its log is kept, what to do, then the log's last lines.
 *
 * <p>The log is copied out of the child's directory first ({@link #keptLog}), because a failed start
 * deletes its scratch directory with the log in it.
 */
public final class ChildStartException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final transient Path keptLog;

    private ChildStartException(String message, Path keptLog) {
        super(message);
        this.keptLog = keptLog;
    }

    /**
     * @param failure what happened, e.g. {@code "kafka-broker-1 exited with code 1 before it logged ..."}
     * @param advice  what to do, a sentence
     */
    static ChildStartException of(ChildProcess child, String failure, String advice) {
        Path kept = keep(child);
        return new ChildStartException(
                failure + ". Its log is kept at " + kept + ". " + advice + LogFile.tail(kept), kept);
    }

    /** Where the child's log was copied to; its own log if it could not be copied. */
    public Path keptLog() {
        return keptLog;
    }

    private static Path keep(ChildProcess child) {
        try {
            Path dir = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "sluice-start-failures"));
            Path kept = dir.resolve(child.name() + "-" + child.pid() + ".log");
            return Files.copy(child.logFile(), kept, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            return child.logFile();
        }
    }
}
