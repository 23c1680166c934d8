package io.sluice.testing;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Fails a test class when Netty's leak detector (paranoid in every test JVM) reports a ByteBuf
 * that was never released. Netty only logs leaks, and only when it tracks a later buffer after a
 * garbage collection, so this collects garbage and allocates until reports have had their chance.
 */
public final class LeakCheck implements BeforeAllCallback, AfterAllCallback {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        detector().setLeakListener((type, records) -> LEAKS.add(type + "\n" + records));
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        for (int round = 0; round < 5; round++) {
            System.gc();
            Thread.sleep(20);
            for (int i = 0; i < 100; i++) {
                ByteBuf probe = ByteBufAllocator.DEFAULT.directBuffer(1);
                probe.release();
            }
        }
        List<String> found = List.copyOf(LEAKS);
        LEAKS.clear();
        if (!found.isEmpty()) {
            throw new AssertionError("Netty reported leaked buffers: " + found);
        }
    }

    /** The detector every ByteBuf is tracked by; Netty keeps it in a package-private field. */
    @SuppressWarnings("unchecked")
    private static ResourceLeakDetector<ByteBuf> detector() throws ReflectiveOperationException {
        Field field = AbstractByteBuf.class.getDeclaredField("leakDetector");
        field.setAccessible(true);
        return (ResourceLeakDetector<ByteBuf>) field.get(null);
    }
}
