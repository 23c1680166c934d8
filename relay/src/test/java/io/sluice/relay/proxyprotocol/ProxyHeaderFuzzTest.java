package io.sluice.relay.proxyprotocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.testing.ByteMutator;
import io.sluice.testing.LeakCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.netty.handler.codec.haproxy.HAProxyProtocolVersion.V1;
import static io.netty.handler.codec.haproxy.HAProxyProtocolVersion.V2;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arbitrary bytes from a trusted peer on an {@code optional} port, in two reads split where the
 * input says: nothing escapes; the connection either closes without opening, or opens and the
 * bytes after it are the input's whole tail (all of it without a header); every buffer is
 * released.
 */
@ExtendWith(LeakCheck.class)
class ProxyHeaderFuzzTest {

    private static final int GENERATED_INPUTS = 4_000;

    @FuzzTest(maxDuration = "10m")
    void decode(byte[] input) throws Exception {
        UnpooledByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
        ProxiedClient client = new ProxiedClient(new ProxyProtocol(ProxyProtocol.Mode.OPTIONAL, TrustedPeers.LOOPBACK));
        client.channel.config().setAllocator(alloc);
        int cut = input.length == 0 ? 0 : (input[0] & 0xff) * input.length / 256;
        try {
            client.channel.writeInbound(alloc.heapBuffer().writeBytes(input, 0, cut));
            client.channel.runPendingTasks();
            if (client.channel.isOpen()) {
                client.channel.writeInbound(alloc.heapBuffer().writeBytes(input, cut, input.length - cut));
                client.channel.runPendingTasks();
            }
        } finally {
            client.channel.finishAndReleaseAll();
        }
        byte[] passed = client.bytes.toByteArray();
        if (client.opened == null) {
            assertEquals(0, passed.length, "bytes passed on without the connection opening");
        } else {
            assertTrue(passed.length <= input.length);
            assertArrayEquals(
                    Arrays.copyOfRange(input, input.length - passed.length, input.length), passed, "the tail, whole");
        }
        assertEquals(0, alloc.metric().usedHeapMemory(), "buffers left unreleased");
    }

    @Test
    void generatedInputs() throws Exception {
        ByteMutator mutator = new ByteMutator(34_2026L, seeds());
        for (int i = 0; i < GENERATED_INPUTS; i++) {
            byte[] input = mutator.next();
            try {
                decode(input);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("input " + HexFormat.of().formatHex(input), e);
            }
        }
    }

    private static List<byte[]> seeds() {
        byte[] frame = {0, 0, 0, 2, 'h', 'i'};
        return List.of(
                ProxiedClient.concat(ProxiedClient.header(V1, "203.0.113.7", 51000), frame),
                ProxiedClient.concat(ProxiedClient.header(V2, "203.0.113.7", 51000), frame),
                ProxiedClient.concat(ProxiedClient.header(V2, "2001:db8::1", 9), frame),
                frame);
    }
}
