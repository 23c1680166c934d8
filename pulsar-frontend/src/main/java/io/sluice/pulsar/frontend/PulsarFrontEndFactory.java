package io.sluice.pulsar.frontend;

import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndFactory;
import io.sluice.frontend.FrontEndOption;
import io.sluice.frontend.HostPort;
import io.sluice.frontend.OptionValues;
import io.sluice.limits.ProtocolScopes;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.pulsar.scopes.PulsarScopes;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The Pulsar front end's registration: {@code --upstream} starts it (docs/REFERENCE.md, "Command
 * line"), {@code --upstream pulsar+ssl://} speaks TLS to the brokers.
 */
public final class PulsarFrontEndFactory implements FrontEndFactory {

    private static final String UPSTREAM = "--upstream";
    private static final String LISTEN = "--listen";
    private static final String ALLOWED_BROKERS = "--allowed-brokers";
    private static final String LOOKUP_MODE = "--lookup-mode";
    private static final String ROLE_CLAIM = "--pulsar-role-claim";

    @Override
    public List<FrontEndOption> options() {
        return List.of(
                FrontEndOption.text(
                        10,
                        UPSTREAM,
                        "URL",
                        null,
                        "Pulsar broker service URL, pulsar://host:port, or pulsar+ssl://host:port to speak TLS to the"
                                + " brokers; enables the Pulsar front end. At least one of --upstream and"
                                + " --kafka-upstream is required. Env SLUICE_UPSTREAM."),
                FrontEndOption.text(
                        20,
                        LISTEN,
                        "HOST:PORT",
                        "0.0.0.0:6650",
                        "Pulsar protocol port for clients (default: ${DEFAULT-VALUE})."),
                FrontEndOption.text(
                        60,
                        ALLOWED_BROKERS,
                        "REGEX",
                        null,
                        "Which host:port a client may name in proxy_to_broker_url (default: the upstream's only)."),
                FrontEndOption.text(
                        80,
                        LOOKUP_MODE,
                        "MODE",
                        "rewrite",
                        "passthrough (sidecar beside the broker) or rewrite (front proxy) (default: ${DEFAULT-VALUE})."),
                FrontEndOption.text(
                        90,
                        ROLE_CLAIM,
                        "CLAIM",
                        "sub",
                        "The claim of a client's token that names its role for limits by role, as the broker's"
                                + " tokenAuthClaim (default: ${DEFAULT-VALUE})."));
    }

    @Override
    public String enablingOption() {
        return UPSTREAM;
    }

    @Override
    public String upstreamTlsCondition() {
        return "--upstream is pulsar+ssl://";
    }

    @Override
    public FrontEndConfig configure(OptionValues values) {
        boolean on = values.isSet(UPSTREAM);
        String url = values.value(UPSTREAM);
        BrokerAddress upstream = on ? OptionValues.parse(UPSTREAM, () -> BrokerAddress.parse(url)) : null;
        BrokerAllowList allowList = on ? allowedBrokers(values, upstream) : null;
        // Checked whether or not the front end is on, so that a bad value never waits for --upstream to surface.
        LookupMode mode = OptionValues.parse(
                LOOKUP_MODE,
                () -> OptionValues.either(
                        values.value(LOOKUP_MODE),
                        "passthrough",
                        LookupMode.PASSTHROUGH,
                        "rewrite",
                        LookupMode.REWRITE));
        HostPort listen = OptionValues.parse(LISTEN, () -> HostPort.parse(values.value(LISTEN)));
        String roleClaim = OptionValues.parse(ROLE_CLAIM, () -> roleClaim(values.value(ROLE_CLAIM)));
        return on
                ? new PulsarConfig(upstream, url.trim().startsWith("pulsar+ssl://"), listen, allowList, mode, roleClaim)
                : null;
    }

    private static String roleClaim(String claim) {
        if (claim == null || claim.isBlank()) {
            throw new IllegalArgumentException("must name a claim, e.g. sub");
        }
        return claim.trim();
    }

    private static BrokerAllowList allowedBrokers(OptionValues values, BrokerAddress upstream) {
        if (!values.isSet(ALLOWED_BROKERS)) {
            return BrokerAllowList.only(upstream);
        }
        return OptionValues.parse(ALLOWED_BROKERS, () -> {
            try {
                return new BrokerAllowList(Pattern.compile(values.value(ALLOWED_BROKERS)));
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
            }
        });
    }

    @Override
    public ProtocolScopes scopes() {
        return PulsarScopes.DECLARED;
    }
}
