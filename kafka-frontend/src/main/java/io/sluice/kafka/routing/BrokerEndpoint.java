package io.sluice.kafka.routing;

import java.util.ArrayList;
import java.util.List;

/** A broker's {@code host:port}, as a bootstrap server or as a node's own address learnt from metadata. */
public record BrokerEndpoint(String host, int port) {

    public BrokerEndpoint {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("a broker address needs a host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1-65535");
        }
    }

    /** Parses {@code host:port} ({@code [v6]:port} for an IPv6 address). */
    public static BrokerEndpoint parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        int colon = trimmed.lastIndexOf(':');
        if (colon <= 0 || colon == trimmed.length() - 1) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        }
        String host = trimmed.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new BrokerEndpoint(host, Integer.parseInt(trimmed.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + text + "'");
        }
    }

    /** Parses a comma-separated list of {@code host:port}, as Kafka's {@code bootstrap.servers}. */
    public static List<BrokerEndpoint> parseList(String text) {
        List<BrokerEndpoint> endpoints = new ArrayList<>();
        for (String part : (text == null ? "" : text).split(",")) {
            if (!part.isBlank()) {
                endpoints.add(parse(part));
            }
        }
        if (endpoints.isEmpty()) {
            throw new IllegalArgumentException("expected HOST:PORT[,HOST:PORT...], got '" + text + "'");
        }
        return List.copyOf(endpoints);
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
