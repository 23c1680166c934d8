package io.sluice.server.it.cluster;

import io.sluice.server.it.ConnectStorm;
import io.sluice.server.it.PulsarHandshake;
import io.sluice.server.it.cluster.SluiceCluster.Member;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.redis.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One client address reconnecting in a loop to three Sluices that share a real Redis, under
 * {@code ips "*"} 10 new connections a second with a burst of 1 s: the three together admit the
 * rate (rate x time + burst, +-10 %), whichever Sluice the connections reach, with the load split
 * 80/10/10 between them (docs/REFERENCE.md, "Limits by client address" and "Cluster").
 */
class ConnectionRateFleetIT {

    private static final double PER_SECOND = 10;
    private static final Duration STORM = Duration.ofSeconds(15);
    private static final int[] ATTEMPTS = {240, 30, 30};

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RedisServer redis;
    private static SluiceCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.builder().start();
        cluster = SluiceCluster.start(
                3,
                broker.serviceUrl(),
                "--cluster-store",
                redis.uri(),
                "--cluster-sync-interval",
                "1000ms",
                "--limits-source",
                "store");
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void threeSluicesTogetherAdmitOneAddressesRate() throws Exception {
        assertEquals(
                200,
                cluster.put(
                                cluster.members.get(0),
                                "/api/v1/limits/ips/%2A",
                                "{\"connections\":{\"perSecond\":" + PER_SECOND + ",\"burstSeconds\":1.0}}")
                        .statusCode());
        for (Member member : cluster.members) {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (cluster.get(member, "/api/v1/limits/ips/%2A").statusCode() != 200) {
                assertTrue(System.nanoTime() < deadline, "the limit never reached Sluice on port " + member.port);
                Thread.sleep(20);
            }
        }

        List<CompletableFuture<ConnectStorm.Result>> storms = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            InetSocketAddress port = new InetSocketAddress("127.0.0.1", cluster.members.get(i).port);
            int attempts = ATTEMPTS[i];
            storms.add(CompletableFuture.supplyAsync(() -> storm(port, attempts)));
        }
        int admitted = 0;
        int attempts = 0;
        double span = 0;
        for (CompletableFuture<ConnectStorm.Result> storm : storms) {
            ConnectStorm.Result result = storm.get();
            System.out.println("[cluster] reconnect loop through one Sluice: " + result);
            admitted += result.admitted();
            attempts += result.attempts();
            span = Math.max(span, result.spanSeconds());
        }
        double expected = PER_SECOND * span + PER_SECOND;
        System.out.printf(
                Locale.ROOT,
                "[cluster] one address through three Sluices: %d of %d admitted in %.2f s, expected %.1f (%+.1f %%)%n",
                admitted,
                attempts,
                span,
                expected,
                100 * (admitted - expected) / expected);
        assertTrue(
                Math.abs(admitted - expected) <= expected * 0.1,
                "admitted " + admitted + " in " + span + " s through three Sluices, expected " + expected + " +-10 %");
    }

    private static ConnectStorm.Result storm(InetSocketAddress port, int attempts) {
        try {
            return ConnectStorm.run(port, "127.0.0.1", null, attempts, STORM, PulsarHandshake::connected);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
