package io.sluice.toy.line;

import io.sluice.frontend.FrontEnd;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.FrontEndContext;
import io.sluice.frontend.HostPort;

/** The line front end's section of the configuration: where it listens and where its upstream is. */
record LineConfig(HostPort listen, HostPort upstream) implements FrontEndConfig {

    @Override
    public String protocol() {
        return LineScopes.PROTOCOL;
    }

    @Override
    public String name() {
        return "Line";
    }

    @Override
    public boolean upstreamTls() {
        return false;
    }

    @Override
    public FrontEnd open(FrontEndContext context) {
        return new LineFrontEnd(this, context);
    }
}
