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
 * {@code ips "*"} 10 new connections a second: the three together admit the rate (+-10 %) once
 * their shares have followed the load, split 80/10/10 between them (docs/REFERENCE.md, "Limits by
 * client address" and "Cluster"). The first seconds are left out: the Sluices start on an even
 * split, and the burst is split too, so a Sluice's part of it goes unused where its load is light.
 */
class ConnectionRateFleetIT {

    private static final double PER_SECOND = 10;
    private static final Duration STORM = Duration.ofSeconds(15);
    /** When the measured window opens and closes, in seconds from the storms' start: shares settle within a few syncs. */
    private static final double FROM = 4;

    private static final double TO = 14;
    private static final int[] ATTEMPTS = {240, 30, 30};

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static RedisServer redis;
    private static SluiceCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.builder().start();
        cluster = SluiceCluster.sharing(3, broker.serviceUrl(), redis.uri(), 1000);
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
        long admitted = 0;
        for (CompletableFuture<ConnectStorm.Result> storm : storms) {
            ConnectStorm.Result result = storm.get();
            System.out.println("[cluster] reconnect loop through one Sluice: " + result + ", "
                    + result.admittedBetween(FROM, TO) + " admitted from " + FROM + " s to " + TO + " s");
            admitted += result.admittedBetween(FROM, TO);
        }
        double rate = admitted / (TO - FROM);
        System.out.printf(
                Locale.ROOT,
                "[cluster] one address through three Sluices: %.1f connections/s admitted from %.0f s to %.0f s"
                        + " (%+.1f %% of the limit)%n",
                rate,
                FROM,
                TO,
                100 * (rate - PER_SECOND) / PER_SECOND);
        assertTrue(
                Math.abs(rate - PER_SECOND) <= PER_SECOND * 0.1,
                rate + " connections/s admitted through three Sluices, expected " + PER_SECOND + " +-10 %");
    }

    private static ConnectStorm.Result storm(InetSocketAddress port, int attempts) {
        try {
            return ConnectStorm.run(port, "127.0.0.1", null, attempts, STORM, PulsarHandshake::connected);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
