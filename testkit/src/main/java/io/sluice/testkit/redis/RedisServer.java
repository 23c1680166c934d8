package io.sluice.testkit.redis;

import io.sluice.testkit.process.ChildSpec;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.process.RestartableChild;
import io.sluice.testkit.process.ScratchDirectories;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real Redis 7.0.15 server ({@code redis-server} from org.signal:embedded-redis) running as a
 * child process on a free loopback port, for tests and benchmarks of what Sluice keeps in Redis.
 *
 * <p>It runs without persistence (no RDB, no AOF) unless {@link Builder#config} asks for it, so a
 * restart starts empty, on the same port. Its directory (config, log) is under the system temp
 * directory and deleted by {@link #close()}; like every child of the testkit it is recorded in a
 * PID file (its marker is the config file's path, kept on its command line by
 * {@code set-proc-title no}) and stopped at JVM exit if nobody closes it.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private static RedisServer shared;

    private final Path dir;
    private final int port;
    private final ChildSpec spec;
    private final RestartableChild process = new RestartableChild("the Redis server");
    private boolean closed;

    private RedisServer(Path dir, int port, Map<String, String> extraConfig) {
        this.dir = dir;
        this.port = port;
        Path config = dir.resolve("redis.conf");
        Map<String, String> c = new LinkedHashMap<>();
        c.put("bind", "127.0.0.1");
        c.put("port", Integer.toString(port));
        c.put("daemonize", "no");
        c.put("dir", dir.toString());
        c.put("logfile", "\"\"");
        c.put("save", "\"\"");
        c.put("appendonly", "no");
        // Keeps the command line as started, so the orphan reaper can match its marker.
        c.put("set-proc-title", "no");
        c.putAll(extraConfig);
        StringBuilder text = new StringBuilder();
        c.forEach((k, v) -> text.append(k).append(' ').append(v).append('\n'));
        try {
            Files.writeString(config, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + config, e);
        }
        this.spec = ChildSpec.builder("redis-server", List.of(RedisBinary.path().toString(), config.toString()))
                .marker(config.toString())
                .logFile(dir.resolve("redis.log"))
                .scratchDirectory(dir)
                .build();
    }

    /** Returns a builder for a server of one's own. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the server shared by every test of this JVM, starting it on first use. Stop, kill,
     * freeze or close it only if no other test uses it; once closed, the next call starts a new
     * one. The shutdown hook stops it.
     */
    public static synchronized RedisServer shared() {
        if (shared == null || shared.isClosed()) {
            shared = builder().start();
        }
        return shared;
    }

    /** The loopback port it listens on, the same across restarts. */
    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT}. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** The PID of the current (or, once stopped, the last) process. */
    public long pid() {
        return process.pid();
    }

    /** Whether the process is alive (frozen counts as alive). */
    public boolean isRunning() {
        return process.isRunning();
    }

    /** Its log (stdout and stderr). */
    public Path logFile() {
        return spec.logFile();
    }

    /** Its directory (config and log); deleted by {@link #close()}. */
    public Path dataDir() {
        return dir;
    }

    /** Stops the server: SIGTERM, then SIGKILL if it has not exited after 5 s. */
    public void stop() {
        process.stop(STOP_GRACE);
    }

    /** Kills the server with SIGKILL, as a crash would. */
    public void kill() {
        process.kill();
    }

    /** Stops the server if it runs and starts it again on the same port; returns once it answers PING. */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException("the Redis server is closed");
        }
        stop();
        launch();
    }

    /** Suspends the server with SIGSTOP: connections stay open but nothing is answered. */
    public void freeze() {
        process.freeze();
    }

    /** Resumes a server suspended by {@link #freeze()}; does nothing if it is not frozen. */
    public void unfreeze() {
        process.unfreeze();
    }

    /** Kills the server (it keeps nothing) and deletes its directory. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        kill();
        ScratchDirectories.delete(dir);
    }

    @Override
    public String toString() {
        return "RedisServer[" + uri() + ", " + dir + "]";
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private void launch() {
        process.start(spec, "answered PING on port " + port, START_TIMEOUT, () -> ping(port));
    }

    /** Sends PING on a fresh connection; whether the answer is PONG (not -LOADING or the like). */
    private static boolean ping(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            socket.setSoTimeout(1_000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            byte[] answer = in.readNBytes(7);
            return new String(answer, StandardCharsets.US_ASCII).equals("+PONG\r\n");
        }
    }

    /** Options of a new server; {@link #start()} launches it. */
    public static final class Builder {
        private final Map<String, String> config = new LinkedHashMap<>();

        private Builder() {}

        /**
         * Sets a directive of {@code redis.conf} (e.g. {@code maxmemory 64mb}), overriding this
         * class's defaults; overriding {@code port} or {@code bind} makes the accessors wrong.
         */
        public Builder config(String directive, String value) {
            config.put(directive, value);
            return this;
        }

        /**
         * Starts the server and returns once it answers PING.
         *
         * @throws IllegalStateException if it exits or does not answer within 30 s; the message
         *     ends with the tail of its log
         */
        public RedisServer start() {
            Path dir = ScratchDirectories.create("redis");
            RedisServer server;
            try {
                server = new RedisServer(dir, FreePorts.loopback(), config);
            } catch (RuntimeException e) {
                ScratchDirectories.delete(dir);
                throw e;
            }
            try {
                server.launch();
                return server;
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
        }
    }
}
