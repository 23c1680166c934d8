package io.sluice.server.it;

import io.sluice.limits.EventRate;
import io.sluice.limits.Limit;
import io.sluice.limits.OnExceed;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.pulsar.codec.proto.BaseCommand;
import io.sluice.pulsar.codec.proto.CommandLookupTopicResponse;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.status.ThrottleLedger;
import io.sluice.testkit.pulsar.PulsarBroker;
import io.sluice.testkit.pulsar.PulsarTokens;
import org.apache.pulsar.client.api.AuthenticationFactory;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A lookup storm through Sluice to a real broker under {@code roles "*"} 100 requests a second
 * with a burst of 1 s and {@code reject}: 1,000 LOOKUPs in 1 s from one role get the rate (about
 * 100 plus the burst answered by the broker), the rest are refused by Sluice with
 * {@code TooManyRequests}, another role beside it is not slowed, and a stock Java client whose
 * lookups and producers are refused recovers by itself.
 */
class PulsarRequestRateIT {

    private static final PulsarBroker broker = PulsarBroker.shared();
    private static final ScopeRef EACH_ROLE = new ScopeRef(PulsarScopes.ROLE, ScopeKind.DEFAULT_NAME);
    private static final String TOPIC = "persistent://public/default/lookup-storm";
    private static final byte[] SECRET = "sluice-test-secret-of-32-bytes!!".getBytes(StandardCharsets.US_ASCII);

    private static PulsarSluice sluice;

    @BeforeAll
    static void start() throws Exception {
        sluice = PulsarSluice.behindABalancer(broker);
    }

    @AfterAll
    static void stop() {
        if (sluice != null) {
            sluice.close();
        }
    }

    @AfterEach
    void unlimited() throws IOException {
        sluice.limits().update(limits -> limits.withLimit(EACH_ROLE, null));
    }

    private static void limitEachRole(double perSecond) throws IOException {
        sluice.limits()
                .update(limits -> limits.withLimit(
                        EACH_ROLE, Limit.requests(new EventRate(perSecond, 1.0)).withOnExceed(OnExceed.REJECT)));
    }

    @Test
    void aLookupStormFromOneRoleGetsTheRateAndAnotherRoleIsNotSlowed() throws Exception {
        limitEachRole(100);
        CompletableFuture<List<Long>> bob = CompletableFuture.supplyAsync(PulsarRequestRateIT::bobsLookups);
        int admitted = 0;
        int refused = 0;
        double seconds;
        try (RawPulsarClient alice = new RawPulsarClient(sluice.proxyPort())) {
            assertEquals(BaseCommand.Type.CONNECTED, alice.connectAs("alice").getType());
            long start = System.nanoTime();
            long lastWrite = start;
            for (int round = 0; round < 10; round++) {
                byte[] lookups = new byte[0];
                for (int i = 1; i <= 100; i++) {
                    lookups = concat(lookups, RawPulsarClient.lookupFrame(TOPIC, round * 100L + i));
                }
                Thread.sleep(Math.max(0, start / 1_000_000 + round * 100L - System.nanoTime() / 1_000_000));
                alice.write(lookups);
                lastWrite = System.nanoTime();
            }
            seconds = (lastWrite - start) / 1e9;
            for (int i = 0; i < 1_000; i++) {
                CommandLookupTopicResponse answer = alice.readCommand().getLookupTopicResponse();
                if (answer.getResponse() == CommandLookupTopicResponse.LookupType.Failed) {
                    assertEquals(ServerError.TooManyRequests, answer.getError(), answer.getMessage());
                    assertTrue(
                            answer.getMessage().startsWith("Sluice refused the request, throttled: role alice"),
                            answer.getMessage());
                    refused++;
                } else {
                    admitted++;
                }
            }
        }
        List<Long> bobMillis = bob.get();
        long bobSlowest = bobMillis.stream().mapToLong(Long::longValue).max().orElse(Long.MAX_VALUE);
        double expected = 100 + 100 * seconds;
        System.out.printf(
                "Pulsar lookup storm: 1000 LOOKUPs written over %.2f s as one role at 100/s: %d answered by the broker"
                        + " (expected %.0f), %d refused with TooManyRequests; another role beside it: %d lookups,"
                        + " slowest %d ms%n",
                seconds, admitted, expected, refused, bobMillis.size(), bobSlowest);

        assertEquals(1_000, admitted + refused);
        assertTrue(
                Math.abs(admitted - expected) <= expected * 0.1 + 2,
                admitted + " answered by the broker in " + seconds + " s, expected " + expected + " +-10 %");
        assertEquals(50, bobMillis.size());
        assertTrue(bobSlowest < 500, "the role beside it is not slowed: " + bobSlowest + " ms");
        assertTrue(
                workRequestThrottles("reject") >= 1,
                "the throttle counted: " + sluice.services().throttles().events());
    }

    @Test
    void aStockClientRefusedWithTooManyRequestsRecoversByItself() throws Exception {
        limitEachRole(3);
        long throttlesBefore = workRequestThrottles("reject");
        try (PulsarClient client = PulsarClient.builder()
                .serviceUrl("pulsar://127.0.0.1:" + sluice.proxyPort())
                .authentication(AuthenticationFactory.token(PulsarTokens.hs256(SECRET, "carol")))
                .operationTimeout(30, TimeUnit.SECONDS)
                .build()) {
            List<CompletableFuture<Producer<byte[]>>> producers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                producers.add(client.newProducer()
                        .topic("persistent://public/default/recovers-" + System.nanoTime() + "-" + i)
                        .createAsync());
            }
            long start = System.nanoTime();
            for (CompletableFuture<Producer<byte[]>> created : producers) {
                try (Producer<byte[]> producer = created.get(30, TimeUnit.SECONDS)) {
                    producer.send("after the storm".getBytes(StandardCharsets.UTF_8));
                }
            }
            System.out.printf(
                    "Pulsar stock client: 3 producers (9 lookups, metadata and PRODUCER requests at least) at 3"
                            + " requests/s, all created in %.1f s%n",
                    (System.nanoTime() - start) / 1e9);
        }
        assertTrue(
                workRequestThrottles("reject") > throttlesBefore,
                "the client was refused on its way: "
                        + sluice.services().throttles().events());
    }

    /** How often a client started being throttled for its requests, with {@code action}. */
    private static long workRequestThrottles(String action) {
        long total = 0;
        for (Map.Entry<ThrottleLedger.EventKey, Long> event :
                sluice.services().throttles().events().entrySet()) {
            if (event.getKey().reason().equals("work_requests")
                    && event.getKey().action().equals(action)) {
                total += event.getValue();
            }
        }
        return total;
    }

    /** 50 lookups as role bob, one at a time; how long each took, in milliseconds. */
    private static List<Long> bobsLookups() {
        List<Long> millis = new ArrayList<>();
        try (RawPulsarClient bob = new RawPulsarClient(sluice.proxyPort())) {
            assertEquals(BaseCommand.Type.CONNECTED, bob.connectAs("bob").getType());
            for (int i = 1; i <= 50; i++) {
                long sent = System.nanoTime();
                bob.write(RawPulsarClient.lookupFrame(TOPIC, i));
                CommandLookupTopicResponse answer = bob.readCommand().getLookupTopicResponse();
                millis.add((System.nanoTime() - sent) / 1_000_000);
                assertTrue(answer.getResponse() != CommandLookupTopicResponse.LookupType.Failed, answer.getMessage());
                Thread.sleep(20);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return millis;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
