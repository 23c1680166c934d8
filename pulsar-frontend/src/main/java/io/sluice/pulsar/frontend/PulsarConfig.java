package io.sluice.pulsar.frontend;

import io.sluice.frontend.FrontEnd;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndContext;
import io.sluice.frontend.HostPort;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.pulsar.scopes.PulsarScopes;

import java.util.Objects;

/**
 * How the Pulsar front end is started, after flags, environment and config file are merged.
 *
 * @param upstream       {@code --upstream}: the broker clients reach when they name none
 * @param upstreamTls    whether Sluice speaks TLS to the brokers ({@code --upstream pulsar+ssl://})
 * @param listen         {@code --listen}: the Pulsar protocol port for clients
 * @param allowedBrokers {@code --allowed-brokers}: which {@code proxy_to_broker_url} values a client may ask for
 * @param lookupMode     {@code --lookup-mode}: whether lookup answers are rewritten to come back through Sluice
 * @param roleClaim      {@code --pulsar-role-claim}: the token claim that names a client's role
 */
public record PulsarConfig(
        BrokerAddress upstream,
        boolean upstreamTls,
        HostPort listen,
        BrokerAllowList allowedBrokers,
        LookupMode lookupMode,
        String roleClaim)
        implements FrontEndConfig {

    /** The {@code protocol} label of the Pulsar front end's metrics and meters: its scopes' protocol. */
    public static final String PROTOCOL = PulsarScopes.PROTOCOL;

    public PulsarConfig {
        Objects.requireNonNull(upstream, "upstream");
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(allowedBrokers, "allowedBrokers");
        Objects.requireNonNull(lookupMode, "lookupMode");
        Objects.requireNonNull(roleClaim, "roleClaim");
    }

    @Override
    public String protocol() {
        return PROTOCOL;
    }

    @Override
    public String name() {
        return "Pulsar";
    }

    @Override
    public FrontEnd open(FrontEndContext context) {
        return new PulsarFrontEnd(this, context);
    }
}
