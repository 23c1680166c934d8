package io.sluice.server;

import io.sluice.admission.AdmissionSettings;
import io.sluice.frontend.FrontEndConfig;
import io.sluice.frontend.HostPort;
import io.sluice.status.TopicActivity;

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
 * @param maxTrackedTopics topics whose figures and throttle counters Sluice keeps at most
 *                         ({@code --max-tracked-topics}), the least used recently dropped first
 * @param maxTopicsPerConnection topics one client connection has Sluice track at most
 *                         ({@code --max-topics-per-connection})
 */
public record SluiceConfig(
        List<FrontEndConfig> frontEnds,
        HostPort admin,
        Path limitsFile,
        String adminToken,
        int metricsMaxTopics,
        Duration drainTimeout,
        Duration handshakeTimeout,
        Duration adminIdleTimeout,
        AdmissionSettings admission,
        ClusterSettings cluster,
        TlsConfig tls,
        Path adminTokenFile,
        int maxTrackedTopics,
        int maxTopicsPerConnection) {

    /** Default of {@code --max-topics-per-connection}. */
    public static final int DEFAULT_MAX_TOPICS_PER_CONNECTION = 10_000;

    /** A configuration with the default bounds on tracked topics. */
    public SluiceConfig(
            List<FrontEndConfig> frontEnds,
            HostPort admin,
            Path limitsFile,
            String adminToken,
            int metricsMaxTopics,
            Duration drainTimeout,
            Duration handshakeTimeout,
            Duration adminIdleTimeout,
            AdmissionSettings admission,
            ClusterSettings cluster,
            TlsConfig tls,
            Path adminTokenFile) {
        this(
                frontEnds,
                admin,
                limitsFile,
                adminToken,
                metricsMaxTopics,
                drainTimeout,
                handshakeTimeout,
                adminIdleTimeout,
                admission,
                cluster,
                tls,
                adminTokenFile,
                TopicActivity.DEFAULT_MAX_TOPICS,
                DEFAULT_MAX_TOPICS_PER_CONNECTION);
    }

    public SluiceConfig {
        if (maxTrackedTopics <= 0 || maxTopicsPerConnection <= 0) {
            throw new IllegalArgumentException("topic bounds must be positive");
        }
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
