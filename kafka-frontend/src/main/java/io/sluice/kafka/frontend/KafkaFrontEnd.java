package io.sluice.kafka.frontend;

import io.netty.channel.ChannelFuture;
import io.sluice.frontend.ClientPorts;
import io.sluice.frontend.FrontEnd;
import io.sluice.frontend.FrontEndContext;
import io.sluice.frontend.HostPort;
import io.sluice.kafka.connection.KafkaChannelInitializer;
import io.sluice.kafka.connection.KafkaSettings;
import io.sluice.kafka.connection.UpstreamRoute;
import io.sluice.kafka.routing.AdvertisedNodes;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.MetadataClient;
import io.sluice.kafka.routing.RoutingMode;
import io.sluice.kafka.routing.TopicIdLookup;
import io.sluice.kafka.routing.TopicIds;
import io.sluice.kafka.routing.UpstreamNodes;
import io.sluice.relay.ProxyServices;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.SocketFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;

/**
 * The Kafka protocol ports: {@code --kafka-listen} in front of the {@code --kafka-upstream}
 * bootstrap servers and, in rewrite mode, one port per broker node ({@code --kafka-node-port-base}
 * plus the node id), opened the first time the node appears in a response, on the server's event
 * loops. Readiness checks also ask the cluster for its brokers until that has worked once, so that
 * a Sluice that just started has every node's port open before clients ask.
 */
final class KafkaFrontEnd implements FrontEnd {

    private static final Logger log = LoggerFactory.getLogger(KafkaFrontEnd.class);

    private static final int UPSTREAM_CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(2);

    private final KafkaConfig config;
    private final ProxyServices services;
    private final ClientPorts ports;
    private final UpstreamNodes nodes;
    private final KafkaSettings settings;
    private final SocketFactory metadataSockets;
    private final TopicIdLookup topicIdLookup;
    private volatile boolean nodesLearnt;

    KafkaFrontEnd(KafkaConfig config, FrontEndContext context) {
        this.config = config;
        this.services = context.services();
        this.ports = context.ports(KafkaChannelInitializer.WATER_MARK);
        this.metadataSockets = context.upstreamSockets();
        boolean rewrite = config.addressMode() == RoutingMode.REWRITE;
        this.nodes = rewrite ? new UpstreamNodes(this::openNodePort) : null;
        AdvertisedNodes advertised =
                rewrite ? new AdvertisedNodes(config.advertisedHost(), config.nodePortBase(), nodes) : null;
        this.topicIdLookup = TopicIdLookup.ofCluster(
                new TopicIds(TopicIds.DEFAULT_CAPACITY),
                config.upstream(),
                metadataSockets,
                config.lookupLogin(),
                METADATA_TIMEOUT);
        this.settings = new KafkaSettings(
                advertised,
                topicIdLookup,
                UPSTREAM_CONNECT_TIMEOUT_MILLIS,
                context.socketChannelType(),
                context.handshakeTimeout(),
                KafkaSettings.DEFAULT_MAX_REQUEST_SIZE,
                context.portTls(),
                context.upstreamTls(),
                config.maxTopicsPerConnection(),
                config.principalMapping());
    }

    @Override
    public void start() throws InterruptedException {
        bind(config.listen().host(), config.listen().port(), UpstreamRoute.bootstrap(config.upstream()))
                .sync();
    }

    /** Opens node {@code nodeId}'s port; called once per node, from an event loop or the sampler thread. */
    private void openNodePort(int nodeId) {
        if (ports.closing()) {
            return;
        }
        int port = config.nodePortBase() + nodeId;
        bind(config.listen().host(), port, UpstreamRoute.node(nodeId, nodes)).addListener((ChannelFuture bound) -> {
            if (!bound.isSuccess()) {
                log.error(
                        "Cannot open port {} for Kafka node {}: {}; clients cannot reach that broker through Sluice",
                        port,
                        nodeId,
                        bound.cause().toString());
                return;
            }
            if (!ports.closing()) {
                log.info("Kafka node {} served on port {}", nodeId, port);
            }
        });
    }

    private ChannelFuture bind(String host, int port, UpstreamRoute route) {
        return ports.bind(host, port, new KafkaChannelInitializer(settings, services, route));
    }

    @Override
    public String describe() {
        InetSocketAddress address = ports.address();
        String routing = config.addressMode() == RoutingMode.REWRITE
                ? "node N on port " + config.nodePortBase() + "+N, advertised as " + config.advertisedHost()
                : "addresses passed through";
        return "Kafka protocol on " + address.getHostString() + ":" + address.getPort() + " ("
                + (settings.clientTls() != null ? "TLS, " : "") + "upstream "
                + (settings.upstreamTls() != null ? "TLS " : "")
                + config.upstream().stream()
                        .map(BrokerEndpoint::toString)
                        .reduce((a, b) -> a + "," + b)
                        .orElseThrow()
                + ", address mode " + config.addressMode().name().toLowerCase(Locale.ROOT) + ", " + routing + ")";
    }

    @Override
    public ClientPorts ports() {
        return ports;
    }

    @Override
    public void close() {
        topicIdLookup.close();
        ports.close();
    }

    /**
     * Reachable when a bootstrap server accepts a connection. In rewrite mode, until that has
     * worked once, asks the bootstrap servers in turn for the brokers first (past one whose TLS
     * handshake fails), opening every node's port; later nodes are learnt from the responses
     * clients get. A cluster that wants SASL before Metadata only counts as reachable, and all its
     * nodes are learnt from the clients' responses.
     */
    @Override
    public boolean checkUpstream() {
        if (nodes != null && !nodesLearnt) {
            for (BrokerEndpoint server : config.upstream()) {
                if (learnNodes(server)) {
                    nodesLearnt = true;
                    return true;
                }
            }
        }
        for (BrokerEndpoint server : config.upstream()) {
            if (new HostPort(server.host(), server.port()).acceptsConnections(METADATA_TIMEOUT)) {
                return true;
            }
        }
        return false;
    }

    private boolean learnNodes(BrokerEndpoint server) {
        try {
            for (MetadataClient.Node node :
                    MetadataClient.brokers(server, METADATA_TIMEOUT, metadataSockets, config.lookupLogin())) {
                settings.advertisedNodes().advertise(node.nodeId(), node.host(), node.port());
            }
            return true;
        } catch (IOException | RuntimeException e) {
            log.debug("No brokers from {}: {}", server, e.toString());
            return false;
        }
    }
}
