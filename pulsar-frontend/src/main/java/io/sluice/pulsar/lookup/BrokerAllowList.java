package io.sluice.pulsar.lookup;

import java.net.URI;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which brokers a client may ask Sluice to connect to through {@code CONNECT.proxy_to_broker_url}.
 * Without it Sluice would be an open relay to any host and port.
 *
 * <p>The pattern must match the whole {@code host:port} of the requested URL.
 */
public final class BrokerAllowList {

    private final Pattern pattern;

    public BrokerAllowList(Pattern pattern) {
        this.pattern = Objects.requireNonNull(pattern, "pattern");
    }

    /** Allows exactly one broker address. */
    public static BrokerAllowList only(BrokerAddress address) {
        return new BrokerAllowList(Pattern.compile(Pattern.quote(address.hostPort())));
    }

    /** The address to connect to for {@code url}, or null when the URL is malformed or not allowed. */
    public BrokerAddress resolve(String url) {
        BrokerAddress address = BrokerAddress.parseOrNull(url);
        if (address == null || !pattern.matcher(address.hostPort()).matches()) {
            return null;
        }
        return address;
    }

    public String pattern() {
        return pattern.pattern();
    }

    @Override
    public String toString() {
        return pattern.pattern();
    }

    /**
     * Host and port of a broker, parsed from a {@code pulsar://host:port} or
     * {@code pulsar+ssl://host:port} URL. The scheme does not say how Sluice connects: its upstream
     * speaks TLS to every broker or to none (see {@code PulsarSettings#upstreamTls}).
     */
    public record BrokerAddress(String host, int port) {

        public BrokerAddress {
            Objects.requireNonNull(host, "host");
            if (host.isEmpty() || port <= 0 || port > 65535) {
                throw new IllegalArgumentException("bad broker address " + host + ":" + port);
            }
        }

        /** Parses {@code pulsar://host:port} or {@code pulsar+ssl://host:port}; throws IllegalArgumentException naming what is wrong. */
        public static BrokerAddress parse(String url) {
            BrokerAddress address = parseOrNull(url);
            if (address == null) {
                throw new IllegalArgumentException(
                        "expected pulsar://host:port or pulsar+ssl://host:port, got '" + url + "'");
            }
            return address;
        }

        /**
         * Parses {@code pulsar://host:port}, {@code pulsar+ssl://host:port} or a bare
         * {@code host:port}, the form the Java client puts in {@code proxy_to_broker_url} (the C++
         * client sends the URL); null when it is none of them.
         */
        static BrokerAddress parseOrNull(String url) {
            if (url == null) {
                return null;
            }
            String text = url.trim();
            if (!text.contains("://")) {
                text = "pulsar://" + text;
            }
            try {
                URI uri = new URI(text);
                if (!("pulsar".equals(uri.getScheme()) || "pulsar+ssl".equals(uri.getScheme()))
                        || uri.getHost() == null
                        || uri.getPort() <= 0) {
                    return null;
                }
                String path = uri.getRawPath();
                if (path != null && !path.isEmpty() && !path.equals("/")) {
                    return null;
                }
                return new BrokerAddress(uri.getHost(), uri.getPort());
            } catch (Exception e) {
                return null;
            }
        }

        public String hostPort() {
            return host + ":" + port;
        }

        @Override
        public String toString() {
            return "pulsar://" + hostPort();
        }
    }
}
