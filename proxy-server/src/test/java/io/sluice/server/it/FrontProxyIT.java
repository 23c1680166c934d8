package io.sluice.server.it;

/** The transparent-proxy contract with Sluice as a front proxy that rewrites lookups. */
class FrontProxyIT extends TransparentProxyContract {

    @Override
    RunningSluice start() {
        return RunningSluice.frontProxy(broker);
    }

    @Override
    String mode() {
        return "rewrite";
    }
}
