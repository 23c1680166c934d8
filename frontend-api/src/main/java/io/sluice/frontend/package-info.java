/**
 * How a front end plugs into the server, and all the server knows of one (docs/ARCHITECTURE.md,
 * "Where a new front end plugs in"). A front-end module registers a
 * {@link io.sluice.frontend.FrontEndFactory} with {@link java.util.ServiceLoader}; the factory
 * adds its {@link io.sluice.frontend.FrontEndOption}s to the command line and makes its section of
 * the configuration from their {@link io.sluice.frontend.OptionValues}, a
 * {@link io.sluice.frontend.FrontEndConfig}; the server opens it with a
 * {@link io.sluice.frontend.FrontEndContext} (the engine's services with the front end's own
 * counters, the event loops, the handshake deadline, its TLS) into a
 * {@link io.sluice.frontend.FrontEnd}, which binds its {@link io.sluice.frontend.ClientPorts}.
 * What happens on a connection is the front end's own business, on the relay's pieces.
 */
package io.sluice.frontend;
