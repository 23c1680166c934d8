package io.sluice.server;

import io.sluice.admission.AdmissionSettings;
import io.sluice.pulsar.lookup.BrokerAllowList;
import io.sluice.pulsar.lookup.BrokerAllowList.BrokerAddress;
import io.sluice.pulsar.lookup.LookupMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything Sluice is started with, after flags, environment and config file are merged.
 *
 * @param upstream         the Pulsar broker service URL clients reach by default; null when the
 *                         Pulsar front end is off
 * @param listen           the Pulsar protocol port for clients
 * @param admin            the admin REST API, metrics and probes port
 * @param limitsFile       where limits persist
 * @param adminToken       bearer token required by {@code /api/v1/**}, or null for none
 * @param allowedBrokers   which {@code proxy_to_broker_url} values a client may ask for (Pulsar)
 * @param lookupMode       whether lookup answers are rewritten to come back through Sluice
 * @param metricsMaxTopics how many topics get their own {@code topic} label
 * @param drainTimeout     how long SIGTERM waits for held sends to reach the broker
 * @param handshakeTimeout how long a client connection may take to complete the Pulsar handshake
 * @param adminIdleTimeout how long an admin connection may take to send a complete request after
 *                         opening or after its previous answer
 * @param admission        admission control settings at start (changed live through the API)
 * @param cluster          how limits are shared with other Sluices, if at all
 * @param kafka            the Kafka front end; null when it is off
 * @param tls              where Sluice speaks TLS and with which files
 * @param adminTokenFile   file holding the admin token, re-read when it changes, or null; never
 *                         together with {@code adminToken}
 */
public record SluiceConfig(
        BrokerAddress upstream,
        HostPort listen,
        HostPort admin,
        Path limitsFile,
        String adminToken,
        BrokerAllowList allowedBrokers,
        LookupMode lookupMode,
        int metricsMaxTopics,
        Duration drainTimeout,
        Duration handshakeTimeout,
        Duration adminIdleTimeout,
        AdmissionSettings admission,
        ClusterSettings cluster,
        KafkaConfig kafka,
        TlsConfig tls,
        Path adminTokenFile) {

    public SluiceConfig {
        if (upstream == null && kafka == null) {
            throw new IllegalArgumentException("neither a Pulsar upstream nor a Kafka upstream: nothing to proxy");
        }
        if (upstream != null) {
            Objects.requireNonNull(allowedBrokers, "allowedBrokers");
        }
        Objects.requireNonNull(listen, "listen");
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(limitsFile, "limitsFile");
        Objects.requireNonNull(lookupMode, "lookupMode");
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

    /** A Pulsar-only Sluice whose limits are its own, in plaintext, with the admin token (if any) given as is. */
    public SluiceConfig(
            BrokerAddress upstream,
            HostPort listen,
            HostPort admin,
            Path limitsFile,
            String adminToken,
            BrokerAllowList allowedBrokers,
            LookupMode lookupMode,
            int metricsMaxTopics,
            Duration drainTimeout,
            Duration handshakeTimeout,
            Duration adminIdleTimeout,
            AdmissionSettings admission) {
        this(
                upstream,
                listen,
                admin,
                limitsFile,
                adminToken,
                allowedBrokers,
                lookupMode,
                metricsMaxTopics,
                drainTimeout,
                handshakeTimeout,
                adminIdleTimeout,
                admission,
                ClusterSettings.NONE,
                null,
                TlsConfig.NONE,
                null);
    }
}
