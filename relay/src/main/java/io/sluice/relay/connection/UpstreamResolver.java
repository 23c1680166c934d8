package io.sluice.relay.connection;

import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.resolver.AddressResolverGroup;
import io.netty.resolver.HostsFileEntriesProvider;
import io.netty.resolver.HostsFileEntriesResolver;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DefaultDnsCache;
import io.netty.resolver.dns.DefaultDnsCnameCache;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;

import java.io.File;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;

/**
 * How Sluice resolves the host names of the upstreams it dials: with Netty's asynchronous DNS
 * resolver, so that a name that takes seconds to resolve (or never does) stalls nobody else on the
 * event loop, as the JDK's blocking lookup did. Answers are cached for their TTL, failures for
 * {@link #NEGATIVE_TTL_SECONDS}, and one cache serves every resolver made from one
 * {@link #builder}. The hosts file comes first: the JVM's ({@code -Djdk.net.hosts.file}) when set,
 * else the system's; the name servers are the system's ({@code /etc/resolv.conf}, with its search
 * domains) unless given.
 */
public final class UpstreamResolver {

    /** How long a name that did not resolve is remembered, so a client naming it again costs no query. */
    static final int NEGATIVE_TTL_SECONDS = 5;

    private static final long QUERY_TIMEOUT_MILLIS = 5_000;

    private UpstreamResolver() {}

    /**
     * The settings of every resolver Sluice makes, with one cache.
     *
     * @param nameServers the DNS servers to ask; empty for the system's
     */
    public static DnsNameResolverBuilder builder(List<InetSocketAddress> nameServers) {
        return new DnsNameResolverBuilder()
                .resolveCache(new DefaultDnsCache())
                .cnameCache(new DefaultDnsCnameCache())
                .negativeTtl(NEGATIVE_TTL_SECONDS)
                .queryTimeoutMillis(QUERY_TIMEOUT_MILLIS)
                .hostsFileEntriesResolver(hostsFile())
                .nameServerProvider(
                        nameServers.isEmpty()
                                ? DnsServerAddressStreamProviders.platformDefault()
                                : new SequentialDnsServerAddressStreamProvider(nameServers));
    }

    /**
     * A resolver per event loop, for channels of {@code socketType} on loops whose datagram channel
     * is {@code datagramType} (the transport's: NIO or epoll), made from {@code settings}.
     */
    public static AddressResolverGroup<InetSocketAddress> group(
            DnsNameResolverBuilder settings,
            Class<? extends DatagramChannel> datagramType,
            Class<? extends SocketChannel> socketType) {
        return new DnsAddressResolverGroup(
                settings.copy().datagramChannelType(datagramType).socketChannelType(socketType));
    }

    /** The JVM's hosts file when {@code jdk.net.hosts.file} names one, else the system's. */
    static HostsFileEntriesResolver hostsFile() {
        String path = System.getProperty("jdk.net.hosts.file");
        if (path == null || path.isBlank()) {
            return HostsFileEntriesResolver.DEFAULT;
        }
        return new FileEntries(HostsFileEntriesProvider.parser().parseSilently(new File(path)));
    }

    /** The entries of one hosts file, read once. */
    private record FileEntries(HostsFileEntriesProvider entries) implements HostsFileEntriesResolver {

        @Override
        public InetAddress address(String host, ResolvedAddressTypes types) {
            String name = host.toLowerCase(Locale.ENGLISH);
            if (name.endsWith(".")) {
                name = name.substring(0, name.length() - 1);
            }
            List<InetAddress> v4 = entries.ipv4Entries().get(name);
            List<InetAddress> v6 = entries.ipv6Entries().get(name);
            return switch (types) {
                case IPV4_ONLY -> first(v4);
                case IPV6_ONLY -> first(v6);
                case IPV4_PREFERRED -> first(v4) != null ? first(v4) : first(v6);
                case IPV6_PREFERRED -> first(v6) != null ? first(v6) : first(v4);
            };
        }

        private static InetAddress first(List<InetAddress> addresses) {
            return addresses == null || addresses.isEmpty() ? null : addresses.get(0);
        }
    }
}
