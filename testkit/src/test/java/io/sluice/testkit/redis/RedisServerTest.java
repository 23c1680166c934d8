package io.sluice.testkit.redis;

import io.sluice.testkit.process.PidFile;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One server through its life: it answers, SIGKILL makes it unreachable, a restart brings it back
 * on the same port, a frozen one answers nothing until resumed, and nothing is left after close.
 */
class RedisServerTest {

    @Test
    void lifecycle() throws Exception {
        long startNanos = System.nanoTime();
        RedisServer redis = RedisServer.builder().config("maxmemory", "32mb").start();
        long pid = redis.pid();
        try {
            System.out.printf("Redis started in %.2f s: %s%n", seconds(startNanos), redis);
            assertTrue(Files.exists(PidFile.directory().resolve(pid + ".pid")));
            assertEquals("+OK", command(redis.port(), "SET", "sluice", "1"));
            assertEquals(List.of("$1", "1"), answer(redis.port(), 2, "GET", "sluice"));
            assertEquals(
                    List.of("*2", "$9", "maxmemory", "$8", "33554432"),
                    answer(redis.port(), 5, "CONFIG", "GET", "maxmemory"));

            redis.kill();
            assertFalse(redis.isRunning());
            assertThrows(ConnectException.class, () -> command(redis.port(), "PING"));
            assertFalse(Files.exists(PidFile.directory().resolve(pid + ".pid")), "a killed server's PID file is gone");

            long restartNanos = System.nanoTime();
            redis.restart();
            System.out.printf("Redis restarted on port %d in %.2f s%n", redis.port(), seconds(restartNanos));
            assertNotEquals(pid, redis.pid());
            pid = redis.pid();
            assertEquals("$-1", command(redis.port(), "GET", "sluice"), "without persistence a restart starts empty");

            redis.freeze();
            assertThrows(SocketTimeoutException.class, () -> command(redis.port(), "PING"));
            redis.unfreeze();
            assertEquals("+PONG", command(redis.port(), "PING"));
        } finally {
            long closeNanos = System.nanoTime();
            redis.close();
            System.out.printf("Redis closed in %.2f s%n", seconds(closeNanos));
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "redis-server still alive");
        assertFalse(Files.exists(redis.dataDir()), "directory left behind");
        assertFalse(Files.exists(PidFile.directory().resolve(pid + ".pid")), "PID file left behind");
    }

    /** Sends one command as a RESP array and returns the first line of the answer. */
    private static String command(int port, String... args) throws IOException {
        return answer(port, 1, args).get(0);
    }

    /** Sends one command as a RESP array and returns the first {@code lines} lines of the answer. */
    private static List<String> answer(int port, int lines, String... args) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(1_000);
            StringBuilder request = new StringBuilder("*" + args.length + "\r\n");
            for (String arg : args) {
                request.append('$')
                        .append(arg.length())
                        .append("\r\n")
                        .append(arg)
                        .append("\r\n");
            }
            socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            List<String> answer = new ArrayList<>();
            while (answer.size() < lines) {
                answer.add(in.readLine());
            }
            return answer;
        }
    }

    private static double seconds(long sinceNanos) {
        return (System.nanoTime() - sinceNanos) / 1e9;
    }
}
