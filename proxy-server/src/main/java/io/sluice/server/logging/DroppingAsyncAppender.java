package io.sluice.server.logging;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.spi.ILoggingEvent;

import java.util.concurrent.atomic.LongAdder;

/**
 * Hands each event to a thread of its own through a bounded queue and never waits: when the queue
 * is full (stderr is slower than the events come) the event is dropped and counted, so logging
 * never blocks an event loop. The count is the process's, whatever appender instances a
 * reconfiguration makes ({@code sluice_log_events_dropped_total}).
 */
public final class DroppingAsyncAppender extends AsyncAppender {

    /** Events the queue holds at most. */
    static final int QUEUE_SIZE = 8_192;

    private static final LongAdder DROPPED = new LongAdder();

    public DroppingAsyncAppender() {
        setQueueSize(QUEUE_SIZE);
        setNeverBlock(true);
        // Every level alike: nothing is dropped before the queue is full, everything after.
        setDiscardingThreshold(0);
        setIncludeCallerData(false);
    }

    /** Events dropped since start because the queue was full. */
    public static long dropped() {
        return DROPPED.sum();
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (isStarted() && getRemainingCapacity() == 0) {
            DROPPED.increment();
            return;
        }
        super.append(event);
    }
}
