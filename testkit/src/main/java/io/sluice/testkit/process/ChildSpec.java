package io.sluice.testkit.process;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What to start as a child process, and again on a restart: its command line, environment and
 * working directory, the log file its stdout and stderr are appended to, and the marker that
 * identifies it on a process listing. Built with {@link #builder}, or by {@link JavaCommand#spec}
 * for a JVM.
 */
public final class ChildSpec {

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Set<String> unsetEnvironment;
    private final Path directory;
    private final Path logFile;
    private final String echoPrefix;
    private final String marker;
    private final Path scratchDirectory;

    private ChildSpec(Builder b) {
        this.name = b.name;
        this.command = List.copyOf(b.command);
        this.environment = Map.copyOf(b.environment);
        this.unsetEnvironment = Set.copyOf(b.unsetEnvironment);
        this.logFile = Objects.requireNonNull(b.logFile, "logFile");
        this.directory =
                b.directory != null ? b.directory : logFile.toAbsolutePath().getParent();
        this.echoPrefix = b.echoPrefix;
        this.marker = Objects.requireNonNull(b.marker, "marker");
        this.scratchDirectory = b.scratchDirectory;
        if (marker.isEmpty() || marker.contains(" ") || command.stream().noneMatch(arg -> arg.contains(marker))) {
            throw new IllegalArgumentException(
                    "the marker '" + marker + "' must be a word of the command line " + command);
        }
    }

    /**
     * Starts describing a child.
     *
     * @param name    a short name for messages and thread names, e.g. {@code pulsar-broker}
     * @param command the program and its arguments
     */
    public static Builder builder(String name, List<String> command) {
        return new Builder(name, command);
    }

    /** Starts the child; see {@link ChildProcess#start}. */
    public ChildProcess start() {
        return ChildProcess.start(this);
    }

    /** The short name given to the builder. */
    public String name() {
        return name;
    }

    /** The command line. */
    public List<String> command() {
        return command;
    }

    /** The file the child's stdout and stderr are appended to. */
    public Path logFile() {
        return logFile;
    }

    Map<String, String> environment() {
        return environment;
    }

    Set<String> unsetEnvironment() {
        return unsetEnvironment;
    }

    Path directory() {
        return directory;
    }

    String echoPrefix() {
        return echoPrefix;
    }

    String marker() {
        return marker;
    }

    Path scratchDirectory() {
        return scratchDirectory;
    }

    /** Options of a {@link ChildSpec}; {@link #logFile} and {@link #marker} are required. */
    public static final class Builder {
        private final String name;
        private final List<String> command;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private final Set<String> unsetEnvironment = new HashSet<>();
        private Path directory;
        private Path logFile;
        private String echoPrefix;
        private String marker;
        private Path scratchDirectory;

        private Builder(String name, List<String> command) {
            this.name = Objects.requireNonNull(name, "name");
            this.command = List.copyOf(command);
        }

        /** Sets a variable of the child's environment (which is otherwise this JVM's). */
        public Builder environment(String key, String value) {
            environment.put(key, value);
            return this;
        }

        /** Leaves a variable of this JVM's environment out of the child's. */
        public Builder unsetEnvironment(String key) {
            unsetEnvironment.add(key);
            return this;
        }

        /** The child's working directory; by default that of its log file. */
        public Builder directory(Path dir) {
            this.directory = dir;
            return this;
        }

        /** The file the child's stdout and stderr are appended to (kept across restarts). */
        public Builder logFile(Path file) {
            this.logFile = file;
            return this;
        }

        /**
         * Also copies every line the child writes to this JVM's stdout, prefixed, e.g. so that a
         * child's Netty leak reports reach the test output that {@code .ci/run} searches.
         */
        public Builder echo(String prefix) {
            this.echoPrefix = prefix;
            return this;
        }

        /**
         * A word of the command line, without spaces, that no unrelated process has: the orphan
         * reaper kills a recorded PID only while its command line still contains it.
         */
        public Builder marker(String marker) {
            this.marker = marker;
            return this;
        }

        /**
         * The child's own directory under {@link ScratchDirectories}, recorded in its PID file so
         * that the reaper deletes it with an orphan.
         */
        public Builder scratchDirectory(Path dir) {
            this.scratchDirectory = dir;
            return this;
        }

        /** Checks the options and returns the description. */
        public ChildSpec build() {
            return new ChildSpec(this);
        }
    }
}
