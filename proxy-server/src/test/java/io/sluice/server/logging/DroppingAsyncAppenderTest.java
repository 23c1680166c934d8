package io.sluice.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.AppenderBase;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DroppingAsyncAppenderTest {

    @Test
    void aStuckOutputDropsAndCountsEventsAndNeverMakesTheLoggerWait() throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter());
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        AppenderBase<ILoggingEvent> stuck = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                delivered.incrementAndGet();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        stuck.setContext(context);
        stuck.start();
        DroppingAsyncAppender async = new DroppingAsyncAppender();
        async.setContext(context);
        async.addAppender(stuck);
        async.start();
        Logger logger = context.getLogger("test");
        long droppedBefore = DroppingAsyncAppender.dropped();
        int events = 3 * DroppingAsyncAppender.QUEUE_SIZE;

        long start = System.nanoTime();
        for (int i = 0; i < events; i++) {
            async.doAppend(new LoggingEvent(Logger.class.getName(), logger, Level.INFO, "event " + i, null, null));
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        long dropped = DroppingAsyncAppender.dropped() - droppedBefore;
        assertTrue(millis < 5_000, "logging waited " + millis + " ms for a stuck output");
        assertTrue(dropped >= events - 2L * DroppingAsyncAppender.QUEUE_SIZE, dropped + " of " + events + " dropped");
        release.countDown();
        async.stop();
        assertEquals(events, delivered.get() + dropped, "every event either written or counted as dropped");
        assertEquals(0, async.getNumberOfElementsInQueue());
    }
}
