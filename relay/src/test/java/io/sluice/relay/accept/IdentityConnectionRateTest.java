package io.sluice.relay.accept;

import io.sluice.limits.EventRate;
import io.sluice.limits.IdentityName;
import io.sluice.limits.Limit;
import io.sluice.limits.LimitPart;
import io.sluice.limits.NameParameter;
import io.sluice.limits.NameTemplate;
import io.sluice.limits.ScopeKind;
import io.sluice.limits.ScopeRef;
import io.sluice.testing.GateWorld;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdentityConnectionRateTest {

    /** An identity kind as a front end declares one: {@code "*"} a bucket per identity. */
    private static final ScopeKind USER = ScopeKind.builder("toy", "user")
            .field("users")
            .cliName("user")
            .named(
                    NameTemplate.of("{user}", NameParameter.of("user").described("A user")),
                    IdentityName.rule("a user"),
                    "alice")
            .withDefault()
            .accepts(LimitPart.PUBLISH, LimitPart.CONNECTIONS)
            .rank(40)
            .description("one user's connections")
            .build();

    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 40000);

    private final GateWorld world = new GateWorld("toy");

    private boolean admit(String user) {
        return IdentityConnectionRate.admit(
                world.quotas, world.services.stats(), new ScopeRef(USER, user), CLIENT, "toy connection");
    }

    private long refused() {
        return world.services.stats().refusedConnections().getOrDefault(ConnectionRateGate.REASON, 0L);
    }

    @Test
    void anIdentityGetsItsBurstThenItsRateEachItsOwnAndTheRefusedAreCounted() {
        world.limit(new ScopeRef(USER, ScopeKind.DEFAULT_NAME), Limit.connections(new EventRate(2.0, 1.0)));
        assertTrue(admit("alice"));
        assertTrue(admit("alice"));
        assertFalse(admit("alice"), "the burst of 2 spent: closed at once, no accept to delay");
        assertEquals(1, refused());
        assertTrue(admit("bob"), "each identity its own bucket");
        world.advance(500);
        assertTrue(admit("alice"), "one more after half a second at 2/s");
        assertFalse(admit("alice"));
        assertEquals(2, refused());
    }

    @Test
    void anIdentityWithoutARateOfConnectionsIsNeverRefused() {
        world.limit(new ScopeRef(USER, "alice"), Limit.NONE);
        for (int i = 0; i < 100; i++) {
            assertTrue(admit("alice"));
        }
        assertEquals(0, refused());
    }
}
