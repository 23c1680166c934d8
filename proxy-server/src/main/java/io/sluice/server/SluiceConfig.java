package io.sluice.server;

import io.sluice.admin.AdminServer;
import io.sluice.admission.AdmissionSettings;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.HostPort;
import io.sluice.relay.proxyprotocol.ProxyProtocol;
import io.sluice.server.logging.LogSettings;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything Sluice is started with, after flags, environment and config file are merged.
 *
 * @param frontEnds        the front ends to run, each with its own section (at least one), in
 *                         the order they are named in the ready line
 * @param admin            the admin REST API, metrics and probes port
 * @param limitsFile       where limits persist
 * @param adminToken       bearer token required by {@code /api/v1/**}, or null for none
 * @param metricsMaxTopics how many topics get their own {@code topic} label
 * @param metricsMaxIdentities how many principals and roles keep their name in the throttle-event counters
 * @param drainTimeout     how long SIGTERM waits for held sends to reach the broker
 * @param handshakeTimeout how long a client connection of any front end may take from accept
 *                         to its upstream's first answer
 * @param adminIdleTimeout how long an admin connection may take to send a complete request after
 *                         opening or after its previous answer
 * @param admission        admission control settings at start (changed live through the API)
 * @param cluster          how limits are shared with other Sluices, if at all
 * @param tls              where Sluice speaks TLS and with which files
 * @param adminTokenFile   file holding the admin token, re-read when it changes, or null; never
 *                         together with {@code adminToken}
 * @param adminAccess      the read-only token, the open door accepted or not, the admin
 *                         connections at once; without a token and {@link AdminAccess#insecure()},
 *                         {@code admin} must be a loopback address
 * @param bounds           what client connections may take of the process
 * @param dnsServers       {@code --dns-servers}: the DNS servers upstream host names are resolved
 *                         with; empty for the system's
 * @param proxyProtocol    {@code --proxy-protocol} and {@code --proxy-protocol-from}: whether
 *                         client connections of every front end start with a PROXY protocol header
 * @param logging          {@code --log-format} and {@code --log-levels}, put in force by {@code SluiceMain}
 */
public record SluiceConfig(
        List<FrontEndConfig> frontEnds,
        HostPort admin,
        Path limitsFile,
        String adminToken,
        int metricsMaxTopics,
        int metricsMaxIdentities,
        Duration drainTimeout,
        Duration handshakeTimeout,
        Duration adminIdleTimeout,
        AdmissionSettings admission,
        ClusterSettings cluster,
        TlsConfig tls,
        Path adminTokenFile,
        AdminAccess adminAccess,
        ConnectionBounds bounds,
        List<InetSocketAddress> dnsServers,
        ProxyProtocol proxyProtocol,
        LogSettings logging) {

    /** Principals and roles that keep their name in the throttle-event counters unless {@code --metrics-max-identities} says otherwise. */
    public static final int DEFAULT_METRICS_MAX_IDENTITIES = 100;

    /** Topics with their own {@code topic} label unless {@code --metrics-max-topics} says otherwise. */
    public static final int DEFAULT_METRICS_MAX_TOPICS = 1000;

    /** {@code --drain-timeout} unless set. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(10);

    /** {@code --handshake-timeout} unless set. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);

    public SluiceConfig {
        Objects.requireNonNull(proxyProtocol, "proxyProtocol");
        Objects.requireNonNull(logging, "logging");
        dnsServers = List.copyOf(dnsServers);
        frontEnds = List.copyOf(frontEnds);
        if (frontEnds.isEmpty()) {
            throw new IllegalArgumentException("no front end: nothing to proxy");
        }
        Set<String> protocols = new HashSet<>();
        for (FrontEndConfig frontEnd : frontEnds) {
            if (!protocols.add(frontEnd.protocol())) {
                throw new IllegalArgumentException("two front ends of protocol " + frontEnd.protocol());
            }
        }
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(limitsFile, "limitsFile");
        Objects.requireNonNull(drainTimeout, "drainTimeout");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(adminIdleTimeout, "adminIdleTimeout");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(tls, "tls");
        if (adminToken != null && adminTokenFile != null) {
            throw new IllegalArgumentException("an admin token and an admin token file exclude each other");
        }
        Objects.requireNonNull(adminAccess, "adminAccess");
        Objects.requireNonNull(bounds, "bounds");
        boolean hasToken = adminToken != null || adminTokenFile != null;
        if (adminAccess.readTokenFile() != null && !hasToken) {
            throw new IllegalArgumentException("invalid --admin-read-token-file: needs --admin-token-file (or"
                    + " --admin-token); without an admin token the API asks for no token at all");
        }
        if (!adminAccess.insecure() && AdminAccess.openDoor(admin, hasToken)) {
            throw new IllegalArgumentException(AdminAccess.refusal(admin));
        }
    }

    /**
     * A configuration for a Sluice embedded in a test or the demo, with {@code frontEnds} and limits
     * in {@code limitsFile}, every other field as {@code sluice.jar} defaults it except the admin port:
     * a free loopback port.
     */
    public static Builder embedded(List<FrontEndConfig> frontEnds, Path limitsFile) {
        return new Builder(frontEnds, limitsFile);
    }

    /** Builds an embedded Sluice's configuration ({@link #embedded}); each setter replaces one default. */
    public static final class Builder {
        private final List<FrontEndConfig> frontEnds;
        private final Path limitsFile;
        private HostPort admin = new HostPort("127.0.0.1", 0);
        private String adminToken;
        private Path adminTokenFile;
        private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;
        private TlsConfig tls = TlsConfig.NONE;

        private Builder(List<FrontEndConfig> frontEnds, Path limitsFile) {
            this.frontEnds = frontEnds;
            this.limitsFile = limitsFile;
        }

        public Builder admin(HostPort admin) {
            this.admin = admin;
            return this;
        }

        public Builder adminToken(String adminToken) {
            this.adminToken = adminToken;
            return this;
        }

        public Builder adminTokenFile(Path adminTokenFile) {
            this.adminTokenFile = adminTokenFile;
            return this;
        }

        public Builder handshakeTimeout(Duration handshakeTimeout) {
            this.handshakeTimeout = handshakeTimeout;
            return this;
        }

        public Builder tls(TlsConfig tls) {
            this.tls = tls;
            return this;
        }

        /** @throws IllegalArgumentException as the canonical constructor */
        public SluiceConfig build() {
            return new SluiceConfig(
                    frontEnds,
                    admin,
                    limitsFile,
                    adminToken,
                    DEFAULT_METRICS_MAX_TOPICS,
                    DEFAULT_METRICS_MAX_IDENTITIES,
                    DEFAULT_DRAIN_TIMEOUT,
                    handshakeTimeout,
                    AdminServer.DEFAULT_IDLE_TIMEOUT,
                    AdmissionSettings.DEFAULTS,
                    ClusterSettings.NONE,
                    tls,
                    adminTokenFile,
                    AdminAccess.DEFAULTS,
                    ConnectionBounds.DEFAULTS,
                    List.of(),
                    ProxyProtocol.OFF,
                    LogSettings.DEFAULTS);
        }
    }

    /** Whether anyone who reaches the admin port may change limits: accepted with {@code --admin-insecure}. */
    public boolean adminOpenDoor() {
        return AdminAccess.openDoor(admin, adminToken != null || adminTokenFile != null);
    }

    /** The section of the front end configured by a {@code type}, or null when that front end is off. */
    public <C extends FrontEndConfig> C frontEnd(Class<C> type) {
        return frontEnds.stream()
                .filter(type::isInstance)
                .map(type::cast)
                .findFirst()
                .orElse(null);
    }
}
