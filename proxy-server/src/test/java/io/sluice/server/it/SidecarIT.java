package io.sluice.server.it;

/**
 * The transparent-proxy contract with Sluice as a sidecar: the broker advertises Sluice's port on
 * its external listener, so lookups pass through untouched and still lead clients back to Sluice.
 */
class SidecarIT extends TransparentProxyContract {

    @Override
    RunningSluice start() {
        return RunningSluice.sidecar(broker);
    }

    @Override
    String mode() {
        return "sidecar";
    }
}
