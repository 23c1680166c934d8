package io.sluice.server.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The transparent-proxy contract with Sluice as a front proxy that rewrites lookups. */
class FrontProxyIT extends TransparentProxyContract {

    private static RunningSluice sluice;

    @BeforeAll
    static void startSluice() {
        sluice = RunningSluice.frontProxy(broker);
    }

    @AfterAll
    static void stopSluice() {
        sluice.close();
    }

    @Override
    String serviceUrl() {
        return sluice.serviceUrl;
    }

    @Override
    long acceptedConnections() {
        return sluice.server.stats().acceptedConnections();
    }

    @Override
    String mode() {
        return "rewrite";
    }
}
