package io.sluice.kafka.gates;

import io.netty.util.concurrent.EventExecutor;
import io.sluice.kafka.routing.TopicIdLookup;
import io.sluice.quota.NanoClock;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.ConnectionHolds;
import io.sluice.relay.Outbound;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.WakeUps;

import java.net.InetAddress;

/**
 * The quota gates of one Kafka connection: the {@link ProduceGate}, the {@link FetchGate}, the
 * {@link ShareFetchGate}, the {@link GroupGate}, the {@link RequestRateGate} and the {@link MutationGate},
 * sharing the connection's topics, client id, reasons to pause its requests, budget and one timer
 * ({@link io.sluice.relay.WakeUps}). Every method of
 * each runs on the connection's event loop; a gate sees only {@link Outbound} and
 * {@link KafkaOutbound}, never the connection or its pipeline.
 */
public final class KafkaGates {

    private final WakeUps timers;
    private final RequestPauses pauses;
    private final ConnectionIdentity identity = new ConnectionIdentity();
    private final ProduceGate produce;
    private final FetchGate fetch;
    private final ShareFetchGate shareFetch;
    private final GroupGate groups;
    private final RequestRateGate requests;
    private final MutationGate mutations;

    /**
     * @param out           the connection, which carries out the gates' verdicts
     * @param loop          the connection's event loop, for timers
     * @param topicIds      topic names by id and their lookup, for requests and responses that name
     *                      topics by id
     * @param maxTopics     topics the connection tracks at most
     * @param clientAddress the client's address, as {@code /api/v1/throttled} shows it
     * @param address       the client's address, for {@code ips} limits; {@code null} when it has none
     */
    public KafkaGates(
            KafkaOutbound out,
            EventExecutor loop,
            ProxyServices services,
            TopicIdLookup topicIds,
            int maxTopics,
            String clientAddress,
            InetAddress address) {
        NanoClock clock = services.quotas().clock();
        this.timers = new WakeUps(loop, clock);
        this.pauses = new RequestPauses(out, clock, timers, GateContext.MAX_TIMER_NANOS);
        ConnectionBudget budget = new ConnectionBudget(
                () -> services.quotas().limits().connection(),
                ConnectionBudget.Pause.of(pauses::pause, pauses::resume, RequestPauses.BUDGET));
        ConnectionHolds holds = new ConnectionHolds(timers, budget, services.throttles(), out::flush);
        TopicTable topics = new TopicTable(topicIds.topicIds(), maxTopics, clock.nanoTime());
        GateContext context =
                new GateContext(out, loop, clock, services, topics, identity, topicIds, pauses, holds, clientAddress);
        this.produce = new ProduceGate(context);
        this.fetch = new FetchGate(context);
        this.shareFetch = new ShareFetchGate(context);
        this.groups = new GroupGate(context);
        this.requests = new RequestRateGate(context, address);
        this.mutations = new MutationGate(context);
    }

    public ProduceGate produce() {
        return produce;
    }

    public FetchGate fetch() {
        return fetch;
    }

    public ShareFetchGate shareFetch() {
        return shareFetch;
    }

    public GroupGate groups() {
        return groups;
    }

    public RequestRateGate requests() {
        return requests;
    }

    public MutationGate mutations() {
        return mutations;
    }

    /**
     * The broker accepted the connection's authentication as {@code principal}: what it produces
     * and fetches is charged to that principal from its next request on.
     */
    public void authenticated(String principal) {
        identity.principal(principal);
    }

    /** The connection closes: what the gates hold is released, throttles end, timers stop. */
    public void close() {
        produce.close();
        fetch.close();
        shareFetch.close();
        groups.close();
        requests.close();
        mutations.close();
        pauses.close();
        timers.close();
    }
}
