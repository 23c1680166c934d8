package io.sluice.relay.proxyprotocol;

import io.netty.channel.ChannelHandler;
import io.sluice.relay.ProxyStats;

import java.util.Locale;
import java.util.Objects;

/**
 * Whether a port's clients start with a PROXY protocol header, and whose header is believed:
 * {@code --proxy-protocol} and {@code --proxy-protocol-from}. Immutable.
 *
 * @param mode    which header a connection must (or may) start with
 * @param trusted the peers allowed to send one; anyone else's header is refused
 */
public record ProxyProtocol(Mode mode, TrustedPeers trusted) {

    /** No header is read: the socket's peer is the client. */
    public static final ProxyProtocol OFF = new ProxyProtocol(Mode.OFF, TrustedPeers.LOOPBACK);

    /** The header a connection starts with. */
    public enum Mode {
        /** None: nothing is added to the pipeline. */
        OFF,
        /** HAProxy's v1 text header, required. */
        V1,
        /** HAProxy's v2 binary header, required. */
        V2,
        /** Either version when the connection starts with one; without one the socket's peer is the client. */
        OPTIONAL;

        /** {@code off}, {@code v1}, {@code v2} or {@code optional}, in any case. */
        public static Mode parse(String text) {
            for (Mode mode : values()) {
                if (mode.name().equalsIgnoreCase(text.trim())) {
                    return mode;
                }
            }
            throw new IllegalArgumentException("expected off, v1, v2 or optional, got '" + text + "'");
        }

        /** As the option spells it. */
        public String option() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public ProxyProtocol {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(trusted, "trusted");
    }

    /** Whether connections read a header at all. */
    public boolean enabled() {
        return mode != Mode.OFF;
    }

    /**
     * The first handler of a new client connection's pipeline (one per connection), or null when
     * {@link Mode#OFF}: then nothing is added.
     *
     * @param connections what log lines call one of the port's connections, e.g. {@code Kafka connection}
     */
    public ChannelHandler newHeaderGate(String connections, ProxyStats stats) {
        return enabled() ? new ProxyHeaderGate(this, connections, stats) : null;
    }
}
