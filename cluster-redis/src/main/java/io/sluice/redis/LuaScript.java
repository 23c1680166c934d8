package io.sluice.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisAsyncCommands;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletionStage;

/**
 * A Lua script of this module's resources, run by its SHA-1 and sent in full only when the
 * server does not know it (first use, or after a restart emptied its script cache).
 */
final class LuaScript {

    private final String body;
    private final String sha;

    private LuaScript(String body) {
        this.body = body;
        this.sha = sha1(body);
    }

    static LuaScript load(String resource) {
        try (InputStream in = LuaScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new LuaScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the script: one round trip, or two when the server had to be sent its body. */
    <T> CompletionStage<T> run(
            RedisAsyncCommands<String, String> redis, ScriptOutputType type, String[] keys, String... args) {
        CompletionStage<T> bySha = redis.evalsha(sha, type, keys, args);
        return bySha.handle((result, failure) -> failure).thenCompose(failure -> {
            if (failure == null) {
                return bySha;
            }
            if (unwrap(failure) instanceof RedisNoScriptException) {
                return redis.<T>eval(body, type, keys, args);
            }
            return bySha;
        });
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
