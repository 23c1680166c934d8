package io.sluice.redis;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.sluice.limits.SharedLimits;
import io.sluice.limits.VersionedLimits;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The limits document of a cluster in Redis ({@code --limits-source store}): a hash of
 * {@code version} and {@code document} under {@code <cluster id>:limits}, changed only by the
 * compare-and-set script ({@code compare-and-set.lua}). It has no TTL: it is the limits.
 */
public final class RedisSharedLimits implements SharedLimits {

    private static final LuaScript COMPARE_AND_SET = LuaScript.load("compare-and-set.lua");

    private final RedisLink link;
    private final RedisKeys keys;

    /** @param link the connection, shared with the cluster store (which closes it) */
    public RedisSharedLimits(RedisLink link, String clusterId) {
        this.link = link;
        this.keys = new RedisKeys(clusterId);
    }

    @Override
    public Optional<VersionedLimits> read() throws IOException {
        List<KeyValue<String, String>> fields = link.await(link.commands().hmget(keys.limits(), "version", "document"));
        if (!fields.get(0).hasValue()) {
            return Optional.empty();
        }
        if (!fields.get(1).hasValue()) {
            throw new IOException(keys.limits() + " has a version but no document");
        }
        try {
            return Optional.of(new VersionedLimits(
                    Long.parseLong(fields.get(0).getValue()), fields.get(1).getValue()));
        } catch (IllegalArgumentException e) {
            throw new IOException(keys.limits() + " has no valid version: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean compareAndSet(long expected, long next, String json) throws IOException {
        Long stored = link.await(COMPARE_AND_SET.<Long>run(
                link.commands(),
                ScriptOutputType.INTEGER,
                new String[] {keys.limits()},
                Long.toString(expected),
                Long.toString(next),
                json));
        return stored == 1L;
    }
}
