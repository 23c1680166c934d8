package io.sluice.toy.line;

import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndFactory;
import io.sluice.frontend.FrontEndOption;
import io.sluice.frontend.HostPort;
import io.sluice.frontend.OptionValues;
import io.sluice.limits.ProtocolScopes;

import java.util.List;

/** The line front end's registration: two options, its configuration, its scopes. */
public final class LineFrontEndFactory implements FrontEndFactory {

    static final String UPSTREAM = "--line-upstream";
    static final String LISTEN = "--line-listen";

    @Override
    public List<FrontEndOption> options() {
        return List.of(
                FrontEndOption.text(
                        400, UPSTREAM, "HOST:PORT", null, "Line protocol upstream; enables the line front end."),
                FrontEndOption.text(
                        410, LISTEN, "HOST:PORT", "127.0.0.1:7070", "Line protocol port (default: ${DEFAULT-VALUE})."));
    }

    @Override
    public String enablingOption() {
        return UPSTREAM;
    }

    @Override
    public String upstreamTlsCondition() {
        return null;
    }

    @Override
    public FrontEndConfig configure(OptionValues values) {
        if (!values.isSet(UPSTREAM)) {
            return null;
        }
        return new LineConfig(
                OptionValues.parse(LISTEN, () -> HostPort.parse(values.value(LISTEN))),
                OptionValues.parse(UPSTREAM, () -> HostPort.parse(values.value(UPSTREAM))));
    }

    @Override
    public ProtocolScopes scopes() {
        return LineScopes.DECLARED;
    }
}
