package io.sluice.kafka.gates;

import io.sluice.kafka.codec.ProduceVerdicts;
import io.sluice.kafka.codec.ResponseFrame;

import java.util.ArrayDeque;

/**
 * A request a gate forwarded (whole or cut), awaiting the broker's response: what the response
 * must be given (Sluice's answers for the partitions not forwarded, a throttle time).
 * Each gate keeps a {@link Pool} of them, so an ordinary request allocates
 * nothing.
 */
final class GateExchange implements Exchange {

    /** The gate that forwarded the request and reads its response. */
    @FunctionalInterface
    interface Owner {

        /** The broker's response to {@code exchange}'s request; see {@link Exchange#complete}. */
        void completed(GateExchange exchange, ResponseFrame response);
    }

    /** A gate's exchanges not in use. */
    static final class Pool {

        private final Owner owner;
        private final int capacity;
        private final ArrayDeque<GateExchange> free = new ArrayDeque<>();

        /** @param capacity how many unused exchanges are kept */
        Pool(Owner owner, int capacity) {
            this.owner = owner;
            this.capacity = capacity;
        }

        /** An exchange for a request forwarded with {@code verdicts} and {@code notifyMillis} to give its response. */
        GateExchange take(ProduceVerdicts verdicts, int notifyMillis) {
            GateExchange exchange = free.poll();
            if (exchange == null) {
                exchange = new GateExchange(this);
            }
            exchange.verdicts = verdicts;
            exchange.notifyMillis = notifyMillis;
            return exchange;
        }

        private void recycle(GateExchange exchange) {
            exchange.verdicts = null;
            if (free.size() < capacity) {
                free.push(exchange);
            }
        }
    }

    private final Pool pool;
    private ProduceVerdicts verdicts;
    private int notifyMillis;

    private GateExchange(Pool pool) {
        this.pool = pool;
    }

    /** Sluice's answers to merge in; null when the request went whole. */
    ProduceVerdicts verdicts() {
        return verdicts;
    }

    /** The throttle time {@code notify} asks for; 0 for none. */
    int notifyMillis() {
        return notifyMillis;
    }

    @Override
    public void complete(ResponseFrame response) {
        try {
            pool.owner.completed(this, response);
        } finally {
            pool.recycle(this);
        }
    }

    @Override
    public void abandon() {
        pool.recycle(this);
    }
}
