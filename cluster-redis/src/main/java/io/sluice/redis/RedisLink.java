package io.sluice.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.Transports;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverBuilder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One connection to the cluster store, shared by the cluster sync and the limits API. Lettuce runs
 * it on two small thread pools of its own, never on the proxy's event loops. Nothing waits longer than
 * the timeout: while the connection is down every command fails at once, and Lettuce reconnects
 * in the background with a growing delay. A store that was down when Sluice started is tried
 * again on the next use.
 */
public final class RedisLink implements AutoCloseable {

    private final RedisURI uri;
    private final Duration timeout;
    private final ClientResources resources;
    private final DnsAddressResolverGroup resolver;
    private final RedisClient client;
    private StatefulRedisConnection<String, String> connection;

    private RedisLink(RedisURI uri, Duration timeout, SslOptions ssl, DnsNameResolverBuilder resolution) {
        this.uri = uri;
        this.timeout = timeout;
        // Lettuce's transport, with Sluice's hosts file, name servers and cache.
        this.resolver =
                new DnsAddressResolverGroup(resolution.copy().datagramChannelType(Transports.datagramChannelClass()));
        this.resources = DefaultClientResources.builder()
                .addressResolverGroup(resolver)
                .ioThreadPoolSize(2)
                .computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(
                        Duration.ofMillis(100), timeout.multipliedBy(2).plusSeconds(1), 2, TimeUnit.MILLISECONDS))
                .build();
        this.client = RedisClient.create(resources, uri);
        ClientOptions.Builder options = ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(timeout)
                        .keepAlive(true)
                        .build());
        if (ssl != null) {
            options.sslOptions(ssl);
        }
        client.setOptions(options.build());
    }

    /**
     * A link to {@code url}; connects on first use.
     *
     * @param url {@code redis://host:port[/db]} or {@code rediss://host:port[/db]} (TLS)
     * @param password the password, overriding one in the URL; null for the URL's (or none)
     * @param caFile PEM certificates to trust for {@code rediss://}; null for the JVM's trust store
     * @param timeout how long a command or a connect may take
     * @param resolution how the store's host name is resolved (without blocking: Netty's DNS resolver)
     * @throws IllegalArgumentException when the URL or the CA file is not usable
     */
    public static RedisLink to(
            String url, String password, Path caFile, Duration timeout, DnsNameResolverBuilder resolution) {
        RedisURI uri = parse(url);
        uri.setTimeout(timeout);
        uri.setClientName("sluice");
        if (password != null && !password.isEmpty()) {
            String username = uri.getCredentialsProvider() == null
                    ? null
                    : uri.getCredentialsProvider()
                            .resolveCredentials()
                            .blockOptional()
                            .map(RedisCredentials::getUsername)
                            .orElse(null);
            RedisCredentials credentials = RedisCredentials.just(username, password);
            uri.setCredentialsProvider(RedisCredentialsProvider.from(() -> credentials));
        }
        SslOptions ssl = null;
        if (caFile != null) {
            if (!uri.isSsl()) {
                throw new IllegalArgumentException(
                        "a CA file is only used with rediss:// (TLS), not with " + describe(uri));
            }
            if (!Files.isReadable(caFile)) {
                throw new IllegalArgumentException("cannot read the CA file " + caFile);
            }
            ssl = SslOptions.builder()
                    .jdkSslProvider()
                    .trustManager(caFile.toFile())
                    .build();
        }
        return new RedisLink(uri, timeout, ssl, resolution);
    }

    /**
     * Checks a store URL as the command line gets it.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static RedisURI parse(String url) {
        Objects.requireNonNull(url, "url");
        String scheme =
                url.contains("://") ? url.substring(0, url.indexOf("://")).toLowerCase(Locale.ROOT) : "";
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            throw new IllegalArgumentException(
                    "expected redis://host:port[/db] or rediss://host:port[/db], got '" + redacted(url) + "'");
        }
        try {
            RedisURI uri = RedisURI.create(url);
            if (uri.getHost() == null || uri.getHost().isEmpty()) {
                throw new IllegalArgumentException("no host in '" + redacted(url) + "'");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected redis://host:port[/db] or rediss://host:port[/db], got '"
                    + redacted(url) + "': " + e.getMessage());
        }
    }

    /** {@code rediss://redis:6379/0}: where the store is, without credentials, for logs. */
    public String describe() {
        return describe(uri);
    }

    private static String describe(RedisURI uri) {
        return (uri.isSsl() ? "rediss" : "redis") + "://" + uri.getHost() + ":" + uri.getPort() + "/"
                + uri.getDatabase();
    }

    private static String redacted(String url) {
        return url.replaceAll("//[^@/]*@", "//***@");
    }

    /** The commands of the connection, connecting first if there never was one. */
    synchronized RedisAsyncCommands<String, String> commands() throws IOException {
        if (connection == null) {
            try {
                connection = client.connect();
            } catch (RedisException e) {
                throw new IOException("cannot connect to " + describe() + ": " + rootMessage(e), e);
            }
        }
        return connection.async();
    }

    /** Waits for a command's answer, at most the timeout. */
    <T> T await(CompletionStage<T> answer) throws IOException {
        try {
            return answer.toCompletableFuture().get(timeout.toMillis() + 100, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted waiting for " + describe(), e);
        } catch (ExecutionException e) {
            throw new IOException(describe() + ": " + rootMessage(e.getCause()), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(describe() + " did not answer within " + timeout.toMillis() + " ms", e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root.getMessage() + ")";
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            connection.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
        resolver.close();
    }
}
