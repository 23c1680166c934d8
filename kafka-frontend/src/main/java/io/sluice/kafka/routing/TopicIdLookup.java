package io.sluice.kafka.routing;

import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.SocketFactory;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;

/**
 * Sluice's own lookup of topic ids no response through it named: a Produce or Fetch from a client
 * that got its metadata through another Sluice, or before this one started, names topics by ids
 * Sluice has never seen, and each must be charged to its topic. The lookup asks the cluster
 * ({@link MetadataClient#topicNames}) on a thread of its own, never an event loop, and learns what
 * it hears into {@link TopicIds}; the ids of every request waiting meanwhile go in one Metadata
 * request of at most {@link #MAX_IDS_PER_LOOKUP} ids, one lookup at a time. At most
 * {@link #MAX_WAITING} requests wait; past that, or once closed, a request is told at once that
 * nothing will be learnt for it.
 */
public final class TopicIdLookup implements AutoCloseable {

    /** Requests waiting for a lookup at most, Sluice-wide. */
    public static final int MAX_WAITING = 1_000;

    /**
     * Topic ids asked for in one lookup at most: a client names as many as it likes, the cluster
     * is asked for no more; the requests whose ids were left out are answered UNKNOWN_TOPIC_ID and
     * retried. One lookup runs at a time.
     */
    public static final int MAX_IDS_PER_LOOKUP = 1_000;

    private static final Logger log = LoggerFactory.getLogger(TopicIdLookup.class);

    /** Asks the cluster for the names of topic ids: those it knows, and any others it names. */
    @FunctionalInterface
    public interface Cluster {
        Map<Uuid, String> topicNames(Collection<Uuid> ids) throws IOException;
    }

    private record Waiting(Collection<Uuid> ids, Executor loop, Runnable done) {}

    private final TopicIds topicIds;
    private final Cluster cluster;
    private final ExecutorService runner;
    private final BlockingQueue<Waiting> waiting = new LinkedBlockingQueue<>(MAX_WAITING);
    private volatile boolean closed;

    /**
     * @param cluster how the names are asked for; called on {@code runner} only
     * @param runner  where the lookups run, one at a time (a thread of their own)
     */
    public TopicIdLookup(TopicIds topicIds, Cluster cluster, ExecutorService runner) {
        this.topicIds = topicIds;
        this.cluster = cluster;
        this.runner = runner;
    }

    /**
     * A lookup that asks the bootstrap {@code servers} in turn over {@code sockets}, each within
     * {@code timeout}, logging in with {@code login} first ({@code null} for none).
     */
    public static TopicIdLookup ofCluster(
            TopicIds topicIds,
            List<BrokerEndpoint> servers,
            SocketFactory sockets,
            LookupLogin login,
            Duration timeout) {
        ExecutorService runner = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "sluice-kafka-topic-ids");
            thread.setDaemon(true);
            return thread;
        });
        return new TopicIdLookup(
                topicIds,
                ids -> {
                    IOException failed = null;
                    for (BrokerEndpoint server : servers) {
                        try {
                            return MetadataClient.topicNames(server, timeout, sockets, login, ids);
                        } catch (IOException e) {
                            failed = e;
                        }
                    }
                    throw failed != null ? failed : new IOException("no bootstrap server");
                },
                runner);
    }

    /** The ids Sluice knows by name: where the gates ask before they decide. */
    public TopicIds topicIds() {
        return topicIds;
    }

    /**
     * Looks {@code ids} up; {@code done} runs on {@code loop} once the cluster answered or could
     * not be asked, when {@link #topicIds()} knows what could be learnt. Returns false, and never
     * runs {@code done}, when too many requests wait already or the lookup is closed: the caller
     * goes on at once without the names.
     */
    public boolean lookUp(Collection<Uuid> ids, Executor loop, Runnable done) {
        if (closed || !waiting.offer(new Waiting(ids, loop, done))) {
            return false;
        }
        try {
            runner.execute(this::lookUpWaiting);
        } catch (RejectedExecutionException e) {
            // Closed meanwhile: the request's own timeout decides it.
        }
        return true;
    }

    /** One lookup for every request waiting now: their ids Sluice still does not know, in one request. */
    private void lookUpWaiting() {
        List<Waiting> batch = new ArrayList<>();
        waiting.drainTo(batch);
        if (batch.isEmpty()) {
            return;
        }
        Set<Uuid> wanted = new LinkedHashSet<>();
        for (Waiting request : batch) {
            for (Uuid id : request.ids()) {
                if (wanted.size() < MAX_IDS_PER_LOOKUP && topicIds.name(id) == null) {
                    wanted.add(id);
                }
            }
        }
        if (!wanted.isEmpty()) {
            ask(wanted);
        }
        for (Waiting request : batch) {
            request.loop().execute(request.done());
        }
    }

    private void ask(Set<Uuid> wanted) {
        try {
            cluster.topicNames(wanted).forEach(topicIds::learn);
        } catch (IOException | RuntimeException e) {
            log.debug("Cannot look up {} Kafka topic ids: {}", wanted.size(), e.toString());
        }
    }

    /** Stops the lookups; a request waiting then is decided by its own timeout. */
    @Override
    public void close() {
        closed = true;
        runner.shutdownNow();
    }
}
