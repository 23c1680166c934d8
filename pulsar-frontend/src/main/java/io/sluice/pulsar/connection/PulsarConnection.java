package io.sluice.pulsar.connection;

import io.sluice.pulsar.codec.FrameWriter;
import io.sluice.pulsar.codec.PulsarFrameRule;
import io.sluice.pulsar.codec.proto.ServerError;
import io.sluice.pulsar.gates.DispatchGate;
import io.sluice.pulsar.gates.PublishGate;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.relay.ConnectionBudget;
import io.sluice.relay.FrameView;
import io.sluice.relay.ProxyServices;
import io.sluice.relay.ReadGate;
import io.sluice.relay.connection.ConnectionProtocol;
import io.sluice.relay.connection.ProxiedConnection;
import io.sluice.relay.connection.UpstreamFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What is Pulsar's in one proxied connection (the relay's {@link ProxiedConnection} runs the
 * rest): the client's CONNECT opens the upstream connection to the broker it names, when the allow
 * list lets it, or is refused with Sluice's own ERROR; frames of either side are routed to the
 * gates that meter producers and consumers ({@link ClientCommands}, {@link BrokerCommands}); the
 * broker's CONNECTED gives its max message size to both decoders and ends the handshake. A draining
 * connection closes once the publish gate has nothing in flight.
 */
final class PulsarConnection implements ConnectionProtocol {

    private static final Logger log = LoggerFactory.getLogger(PulsarConnection.class);

    /** The request_id of an ERROR about the connection as a whole rather than one request. */
    private static final long CONNECTION_REQUEST_ID = -1L;

    final ProxiedConnection relay;
    final PulsarSettings settings;
    final ProxyServices services;
    final PublishGate publish;
    final DispatchGate dispatch;

    private final ClientCommands fromClient;
    private final BrokerCommands fromBroker;

    PulsarConnection(ProxiedConnection relay, PulsarSettings settings, ProxyServices services) {
        this.relay = relay;
        this.settings = settings;
        this.services = services;
        String clientAddress = String.valueOf(relay.remoteAddress());
        this.publish = new PublishGate(
                relay,
                relay.eventLoop(),
                services,
                clientAddress,
                settings.throttleReceiptWindow(),
                new ConnectionBudget.Pause() {
                    @Override
                    public void pause(ConnectionBudget.Breach breach) {
                        relay.pauseClient(ReadGate.CONNECTION_LIMIT);
                    }

                    @Override
                    public void resume() {
                        relay.resumeClient(ReadGate.CONNECTION_LIMIT);
                    }
                });
        this.dispatch = new DispatchGate(relay, relay.eventLoop(), services, clientAddress);
        this.fromClient = new ClientCommands(this);
        this.fromBroker = new BrokerCommands(this);
    }

    @Override
    public void fromClient(FrameView frame) {
        fromClient.read(frame);
    }

    @Override
    public void fromUpstream(FrameView frame) {
        fromBroker.read(frame);
    }

    @Override
    public boolean isIdle() {
        return publish.isIdle();
    }

    @Override
    public void closed() {
        publish.close();
        dispatch.close();
    }

    /**
     * Opens the upstream connection for a client's CONNECT and forwards the lent CONNECT frame as
     * it came, auth data included, first of all once the upstream is up.
     */
    void connect(FrameView connectFrame, String proxyToBrokerUrl) {
        BrokerAddress target = settings.upstream();
        if (proxyToBrokerUrl != null && !proxyToBrokerUrl.isEmpty()) {
            target = settings.allowedBrokers().resolve(proxyToBrokerUrl);
            if (target == null) {
                log.warn(
                        "Refusing {}: proxy_to_broker_url '{}' is not allowed by --allowed-brokers '{}'",
                        relay.remoteAddress(),
                        proxyToBrokerUrl,
                        settings.allowedBrokers());
                services.stats().protocolError("broker_not_allowed");
                refuse(
                        ServerError.AuthorizationError,
                        "Sluice does not proxy to " + proxyToBrokerUrl + ": not in its allowed brokers");
                return;
            }
        }
        BrokerAddress address = target;
        relay.connect(address.host(), address.port(), failure -> unreachable(address, failure));
        relay.toUpstream(connectFrame);
    }

    /** The upstream connection failed: tells the client it is Sluice that cannot reach the broker. */
    private void unreachable(BrokerAddress address, UpstreamFailure failure) {
        log.warn("Upstream {} unreachable for {}: {}", address, relay.remoteAddress(), failure.reason());
        refuse(ServerError.ServiceNotReady, "Sluice cannot reach broker " + address + ": " + failure.message());
    }

    /** The broker's CONNECTED is on its way to the client: its max message size applies to both sides, and the handshake is done. */
    void connected(int maxMessageSize) {
        if (maxMessageSize > 0) {
            relay.limitFrames(PulsarFrameRule.maxFrameSize(maxMessageSize));
        }
        relay.handshakeCompleted();
    }

    /** Answers the client's CONNECT with an error and closes. */
    void refuse(ServerError error, String message) {
        relay.toClient(FrameWriter.error(relay.alloc(), CONNECTION_REQUEST_ID, error, message));
        relay.close();
    }
}
