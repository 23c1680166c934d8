package io.sluice.redis;

import io.lettuce.core.ScriptOutputType;
import io.sluice.cluster.ClusterStore;
import io.sluice.cluster.ClusterSync;
import io.sluice.cluster.Demand;
import io.sluice.cluster.MemberDemand;
import io.sluice.cluster.MemberSeen;
import io.sluice.cluster.SyncReply;
import io.sluice.cluster.SyncRequest;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster store on Redis: one Lua script per sync ({@code exchange.lua}) writes this Sluice's
 * reports and reads everyone's live ones, by the server's clock, in one round trip. A report lives
 * three sync intervals; every key expires when nobody writes it for that long.
 */
public final class RedisClusterStore implements ClusterStore {

    private static final LuaScript EXCHANGE = LuaScript.load("exchange.lua");

    private final RedisLink link;
    private final RedisKeys keys;
    private final String ttlMillis;

    /**
     * @param link the connection, closed with this store
     * @param clusterId the key prefix shared by the Sluices that share limits
     * @param interval the sync interval; reports live {@link ClusterSync#STALE_INTERVALS} of them
     */
    public RedisClusterStore(RedisLink link, String clusterId, Duration interval) {
        this.link = link;
        this.keys = new RedisKeys(clusterId);
        this.ttlMillis = Long.toString(interval.toMillis() * ClusterSync.STALE_INTERVALS);
    }

    @Override
    public SyncReply exchange(SyncRequest request) throws IOException {
        List<String> ids = new ArrayList<>(request.demands().keySet());
        String[] scriptKeys = new String[ids.size() + 2];
        String[] args = new String[ids.size() + 2];
        scriptKeys[0] = keys.members();
        scriptKeys[1] = keys.limits();
        args[0] = request.member();
        args[1] = ttlMillis;
        for (int i = 0; i < ids.size(); i++) {
            Demand demand = request.demands().get(ids.get(i));
            scriptKeys[i + 2] = keys.demand(ids.get(i));
            args[i + 2] = demand.usage() + " " + demand.demand();
        }
        List<Object> result = link.await(EXCHANGE.run(link.commands(), ScriptOutputType.MULTI, scriptKeys, args));
        try {
            return reply(ids, result);
        } catch (RuntimeException e) {
            throw new IOException("the cluster store's answer is not what Sluice wrote: " + e.getMessage(), e);
        }
    }

    private static SyncReply reply(List<String> ids, List<Object> result) {
        long now = (Long) result.get(0);
        List<MemberSeen> members = new ArrayList<>();
        List<?> seen = (List<?>) result.get(1);
        for (int i = 0; i < seen.size(); i += 2) {
            members.add(new MemberSeen(
                    (String) seen.get(i), Math.max(0, now - leadingMillis((String) seen.get(i + 1)))));
        }
        Object version = result.get(2);
        Map<String, List<MemberDemand>> demands = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            List<?> reports = (List<?>) result.get(i + 3);
            List<MemberDemand> live = new ArrayList<>(reports.size() / 2);
            for (int j = 0; j < reports.size(); j += 2) {
                String[] fields = ((String) reports.get(j + 1)).split(" ");
                live.add(new MemberDemand(
                        (String) reports.get(j),
                        new Demand(Double.parseDouble(fields[1]), Double.parseDouble(fields[2]))));
            }
            demands.put(ids.get(i), live);
        }
        return new SyncReply(demands, members, version == null ? 0 : Long.parseLong((String) version));
    }

    private static long leadingMillis(String value) {
        int space = value.indexOf(' ');
        return Long.parseLong(space < 0 ? value : value.substring(0, space));
    }

    @Override
    public void close() {
        link.close();
    }
}
