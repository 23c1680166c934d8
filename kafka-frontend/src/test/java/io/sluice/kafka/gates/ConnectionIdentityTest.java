package io.sluice.kafka.gates;

import io.netty.buffer.ByteBuf;
import io.sluice.kafka.codec.RequestHeader;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.kafka.testing.KafkaFrames;
import io.sluice.kafka.testing.RecordFrames;
import io.sluice.kafka.testing.RecordFrames.Part;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The gates re-resolve a topic's quotas exactly when who the connection is changes. */
@ExtendWith(LeakCheck.class)
class ConnectionIdentityTest {

    private final ConnectionIdentity identity = new ConnectionIdentity();

    @Test
    void theGenerationMovesWhenTheClientIdOrThePrincipalChangesAndOnlyThen() {
        request("app-1");
        assertEquals("app-1", identity.clientId());
        assertEquals(KafkaScopes.ANONYMOUS, identity.principal());
        int first = identity.generation();
        request("app-1");
        identity.principal(KafkaScopes.ANONYMOUS);
        assertEquals(first, identity.generation(), "nothing changed");
        identity.principal("User:alice");
        assertEquals(first + 1, identity.generation());
        assertEquals("User:alice", identity.principal());
        request("app-2");
        assertEquals(first + 2, identity.generation());
        assertEquals("app-2", identity.clientId());
    }

    private void request(String clientId) {
        ByteBuf frame = RecordFrames.produceRequest(
                (short) 11, (short) 1, 1, clientId, new Part("orders", null, 0, RecordFrames.batch(1, 10)));
        try {
            RequestHeader header = new RequestHeader();
            header.read(KafkaFrames.view(frame));
            identity.clientId(KafkaFrames.view(frame), header);
        } finally {
            frame.release();
        }
    }
}
