package io.sluice.server.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The transparent-proxy contract with Sluice as a sidecar: the broker advertises Sluice's port on
 * its external listener, so lookups pass through untouched and still lead clients back to Sluice.
 */
class SidecarIT extends TransparentProxyContract {

    private static RunningSluice sluice;

    @BeforeAll
    static void startSluice() {
        sluice = RunningSluice.sidecar(broker);
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
        return "sidecar";
    }
}
