package io.sluice.server;

import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.sluice.cluster.ClusterStatus;
import io.sluice.cluster.ClusterSync;
import io.sluice.limits.LimitsStore;
import io.sluice.limits.SharedLimits;
import io.sluice.quota.QuotaEngine;
import io.sluice.redis.RedisClusterStore;
import io.sluice.redis.RedisLink;
import io.sluice.redis.RedisSharedLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * This Sluice as a member of a cluster ({@code --cluster-store}): the link to the store, the sync
 * that keeps its shares of the limits current and, with {@code --limits-source store}, the shared
 * limits document. Nothing here is on the hot path, and nothing waits for the store at start.
 */
final class ClusterMember implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterMember.class);

    private final ClusterSettings settings;
    private final String name;
    private final RedisLink link;
    private final RedisClusterStore store;
    private ClusterSync sync;

    private ClusterMember(ClusterSettings settings, DnsNameResolverBuilder resolution) {
        this.settings = settings;
        this.name = memberName();
        // Commands may take up to one interval: a slow store delays the next sync, never traffic.
        this.link = RedisLink.to(
                settings.storeUrl(), settings.storePassword(), settings.storeCa(), settings.syncInterval(), resolution);
        this.store = new RedisClusterStore(link, settings.clusterId(), settings.syncInterval());
    }

    /**
     * A member for {@code settings}, not yet syncing, resolving the store's name with
     * {@code resolution}'s settings; null when Sluice shares no limits.
     */
    static ClusterMember of(ClusterSettings settings, DnsNameResolverBuilder resolution) {
        return settings.enabled() ? new ClusterMember(settings, resolution) : null;
    }

    /** The limits document in the store, for {@code --limits-source store}. */
    SharedLimits sharedLimits() {
        return new RedisSharedLimits(link, settings.clusterId());
    }

    /** Starts syncing the engine's buckets (and the limits, when they live in the store) every interval. */
    void start(QuotaEngine engine, LimitsStore limits) {
        sync = new ClusterSync(
                settings.clusterId(),
                name,
                settings.syncInterval(),
                engine,
                store,
                version -> {
                    try {
                        limits.refresh(version);
                    } catch (IOException e) {
                        log.warn("Cannot read the limits from the cluster store: {}", e.toString());
                    }
                },
                engine.clock(),
                Clock.systemUTC());
        sync.start();
    }

    /** The status the admin API and the metrics show. */
    Supplier<ClusterStatus> status() {
        return () -> sync == null ? ClusterStatus.standalone() : sync.status();
    }

    /** For the ready line: {@code cluster sluice on redis://redis:6379/0 as host:1}. */
    String describe() {
        return "cluster " + settings.clusterId() + " on " + link.describe() + " as " + name
                + (settings.limitsSource() == ClusterSettings.LimitsSource.STORE ? ", limits in the store" : "");
    }

    /** Stops syncing and closes the connection; the shares stay as they were. */
    @Override
    public void close() {
        if (sync != null) {
            sync.close();
        }
        store.close();
    }

    /** {@code host:pid}: unique among the Sluices of a host, and the pod's name in Kubernetes. */
    private static String memberName() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "sluice";
            }
        }
        return host + ":" + ProcessHandle.current().pid();
    }
}
