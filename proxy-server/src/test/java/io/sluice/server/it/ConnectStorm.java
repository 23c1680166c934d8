package io.sluice.server.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client reconnecting in a loop: new connections at a steady pace from one local address, each
 * opened, optionally prefixed with a PROXY protocol header, then its protocol's first request sent
 * and its answer awaited; whatever the other side does, the pace holds (the connections of a
 * misconfigured client do not wait for each other). What it measures: how many were answered
 * (admitted, which only the broker does), how many were closed unanswered, and when.
 */
public final class ConnectStorm {

    /** Sends a protocol's first request on a fresh connection and reads the broker's answer; throws when closed. */
    @FunctionalInterface
    public interface Handshake {
        void exchange(Socket socket) throws IOException;
    }

    /**
     * What one storm saw.
     *
     * @param attempts connections opened
     * @param admitted connections the broker answered
     * @param closed connections closed without an answer
     * @param spanSeconds from the first attempt to the last answer
     * @param slowestSeconds the longest an admitted connection waited for its answer
     * @param answeredAtSeconds when each admitted connection was answered, in seconds from the
     *     first attempt, in no particular order
     */
    public record Result(
            int attempts,
            int admitted,
            int closed,
            double spanSeconds,
            double slowestSeconds,
            List<Double> answeredAtSeconds) {

        /** What a rate of new connections with a bucket of {@code burstSeconds} admits over the span: rate x time + burst. */
        public double expected(double perSecond, double burstSeconds) {
            return perSecond * spanSeconds + perSecond * burstSeconds;
        }

        /** How many were answered from {@code fromSeconds} (inclusive) to {@code toSeconds} after the first attempt. */
        public long admittedBetween(double fromSeconds, double toSeconds) {
            return answeredAtSeconds.stream()
                    .filter(at -> at >= fromSeconds && at < toSeconds)
                    .count();
        }

        @Override
        public String toString() {
            return "Result[attempts=" + attempts + ", admitted=" + admitted + ", closed=" + closed + ", spanSeconds="
                    + spanSeconds + ", slowestSeconds=" + slowestSeconds + "]";
        }
    }

    private ConnectStorm() {}

    /**
     * Opens {@code attempts} connections to {@code target} from {@code localAddress}, evenly over
     * {@code over}, and waits for each to be answered or closed.
     *
     * @param header the bytes a load balancer writes first, or {@code null} for none
     */
    public static Result run(
            InetSocketAddress target,
            String localAddress,
            byte[] header,
            int attempts,
            Duration over,
            Handshake handshake)
            throws Exception {
        InetAddress local = InetAddress.getByName(localAddress);
        ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor();
        ExecutorService connections = Executors.newCachedThreadPool();
        AtomicLong lastAnswer = new AtomicLong();
        AtomicLong slowest = new AtomicLong();
        Queue<Long> answers = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        long intervalNanos = over.toNanos() / attempts;
        List<Future<Future<Boolean>>> outcomes = new ArrayList<>();
        try {
            for (int i = 0; i < attempts; i++) {
                outcomes.add(pace.schedule(
                        () -> connections.submit(
                                () -> attempt(target, local, header, handshake, answers, lastAnswer, slowest)),
                        i * intervalNanos,
                        TimeUnit.NANOSECONDS));
            }
            int admitted = 0;
            for (Future<Future<Boolean>> outcome : outcomes) {
                if (outcome.get(over.toSeconds() + 30, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS)) {
                    admitted++;
                }
            }
            return new Result(
                    attempts,
                    admitted,
                    attempts - admitted,
                    (lastAnswer.get() - start) / 1e9,
                    slowest.get() / 1e9,
                    answers.stream().map(at -> (at - start) / 1e9).toList());
        } finally {
            pace.shutdownNow();
            connections.shutdownNow();
        }
    }

    private static boolean attempt(
            InetSocketAddress target,
            InetAddress local,
            byte[] header,
            Handshake handshake,
            Queue<Long> answers,
            AtomicLong lastAnswer,
            AtomicLong slowest)
            throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(local, 0));
            long opened = System.nanoTime();
            socket.connect(target, 10_000);
            socket.setSoTimeout(10_000);
            if (header != null) {
                socket.getOutputStream().write(header);
            }
            try {
                handshake.exchange(socket);
            } catch (IOException closed) {
                return false;
            }
            long answered = System.nanoTime();
            answers.add(answered);
            lastAnswer.accumulateAndGet(answered, Math::max);
            slowest.accumulateAndGet(answered - opened, Math::max);
            return true;
        }
    }
}
