package io.sluice.server;

import io.netty.util.internal.PlatformDependent;
import io.sluice.admin.AdminServer;
import io.sluice.frontend.HostPort;
import io.sluice.kafka.frontend.KafkaConfig;
import io.sluice.kafka.routing.BrokerEndpoint;
import io.sluice.kafka.routing.LookupLogin;
import io.sluice.kafka.routing.RoutingMode;
import io.sluice.pulsar.connection.PulsarSettings;
import io.sluice.pulsar.frontend.PulsarConfig;
import io.sluice.pulsar.lookup.LookupMode;
import io.sluice.relay.proxyprotocol.ProxyProtocol;
import io.sluice.server.logging.LogFormat;
import io.sluice.server.logging.LogSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.sluice.server.OpenAdminParse.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SluiceMainTest {

    @TempDir
    Path dir;

    private final PrintStream out = new PrintStream(new ByteArrayOutputStream());

    @Test
    void defaultsFollowTheSpec() {
        SluiceConfig config =
                parse(new String[] {"--upstream", "pulsar://broker:6650", "--admin-insecure"}, Map.of(), out);
        assertEquals(new HostPort("0.0.0.0", 6650), pulsar(config).listen());
        assertEquals(new HostPort("0.0.0.0", 8080), config.admin());
        assertEquals(Path.of("./sluice-limits.json"), config.limitsFile());
        assertNull(config.adminToken());
        assertEquals(LookupMode.REWRITE, pulsar(config).lookupMode());
        assertEquals(1000, config.metricsMaxTopics());
        assertEquals(10, config.drainTimeout().toSeconds());
        assertEquals(PulsarSettings.DEFAULT_HANDSHAKE_TIMEOUT, config.handshakeTimeout());
        assertEquals(AdminServer.DEFAULT_IDLE_TIMEOUT, config.adminIdleTimeout());
        assertEquals(
                "broker",
                pulsar(config).allowedBrokers().resolve("pulsar://broker:6650").host());
        assertNull(pulsar(config).allowedBrokers().resolve("pulsar://other:6650"), "only the upstream by default");
    }

    @Test
    void theDefaultAdminAddressWithoutATokenRefusesNamingTheThreeWaysOut() {
        IllegalArgumentException refusal = assertThrows(
                IllegalArgumentException.class,
                () -> SluiceMain.parse(new String[] {"--upstream", "pulsar://broker:6650"}, Map.of(), out));

        assertEquals(
                "the admin API on 0.0.0.0:8080 would let anyone who reaches it change every limit: give it a token"
                        + " (--admin-token-file PATH), bind it to loopback (--admin 127.0.0.1:8080), or accept the"
                        + " risk (--admin-insecure)",
                refusal.getMessage());
    }

    @Test
    void loopbackOrATokenOrAdminInsecureLetTheAdminApiStartWithoutRefusal() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret");
        for (String[] args : List.of(
                new String[] {"--admin", "127.0.0.1:8080"},
                new String[] {"--admin", "localhost:8080"},
                new String[] {"--admin", "[::1]:8080"},
                new String[] {"--admin-token-file", token.toString()},
                new String[] {"--admin-insecure"},
                new String[] {"--admin-insecure=true"})) {
            String[] all = Stream.concat(Stream.of("--upstream", "pulsar://broker:6650"), Arrays.stream(args))
                    .toArray(String[]::new);
            SluiceConfig config = SluiceMain.parse(all, Map.of(), out);
            assertEquals(args[0].startsWith("--admin-insecure"), config.adminOpenDoor(), String.join(" ", args));
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> SluiceMain.parse(
                        new String[] {"--upstream", "pulsar://broker:6650", "--admin-insecure=false"}, Map.of(), out));
    }

    @Test
    void theReadTokenNeedsAnAdminToken() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret");
        Path read = Files.writeString(dir.resolve("read-token"), "look");
        SluiceConfig config = SluiceMain.parse(
                new String[] {
                    "--upstream", "pulsar://broker:6650",
                    "--admin-token-file", token.toString(),
                    "--admin-read-token-file", read.toString()
                },
                Map.of(),
                out);
        assertEquals(read, config.adminAccess().readTokenFile());

        IllegalArgumentException alone = assertThrows(
                IllegalArgumentException.class,
                () -> SluiceMain.parse(
                        new String[] {
                            "--upstream", "pulsar://broker:6650",
                            "--admin", "127.0.0.1:8080",
                            "--admin-read-token-file", read.toString()
                        },
                        Map.of(),
                        out));
        assertTrue(alone.getMessage().startsWith("invalid --admin-read-token-file: needs --admin-token-file"));
    }

    @Test
    void flagsWinOverEnvironmentAndEnvironmentOverTheConfigFile() throws Exception {
        Path yaml = dir.resolve("sluice.yaml");
        Files.writeString(
                yaml,
                "upstream: pulsar://from-file:6650\nlisten: 127.0.0.1:7001\nadmin: 127.0.0.1:7002\n"
                        + "lookupMode: passthrough\nmetricsMaxTopics: 5\nhandshakeTimeout: 7\nadminIdleTimeout: 8\n");
        Map<String, String> env = Map.of(
                "SLUICE_CONFIG",
                yaml.toString(),
                "SLUICE_LISTEN",
                "127.0.0.1:7101",
                "SLUICE_ADMIN_TOKEN",
                "secret",
                "SLUICE_ADMIN_IDLE_TIMEOUT",
                "9");
        SluiceConfig config = parse(new String[] {"--admin", "127.0.0.1:7202", "--handshake-timeout", "3"}, env, out);
        assertEquals("from-file", pulsar(config).upstream().host(), "file");
        assertEquals(7101, pulsar(config).listen().port(), "env over file");
        assertEquals(7202, config.admin().port(), "flag over file");
        assertEquals("secret", config.adminToken(), "env");
        assertEquals(LookupMode.PASSTHROUGH, pulsar(config).lookupMode());
        assertEquals(5, config.metricsMaxTopics());
        assertEquals(Duration.ofSeconds(3), config.handshakeTimeout(), "flag over file");
        assertEquals(Duration.ofSeconds(9), config.adminIdleTimeout(), "env over file");
    }

    @Test
    void timeoutsComeFromTheConfigFileWhenNothingElseSetsThem() throws Exception {
        Path yaml = dir.resolve("sluice.yaml");
        Files.writeString(yaml, "upstream: pulsar://b:1\nhandshakeTimeout: 7\nadminIdleTimeout: 8\n");
        SluiceConfig config = parse(new String[] {"--config", yaml.toString()}, Map.of(), out);
        assertEquals(Duration.ofSeconds(7), config.handshakeTimeout());
        assertEquals(Duration.ofSeconds(8), config.adminIdleTimeout());
    }

    @Test
    void theProxyProtocolIsOffUnlessToldAndTrustsOnlyTheBlocksGiven() {
        SluiceConfig defaults = parse(new String[] {"--upstream", "pulsar://b:1"}, Map.of(), out);
        assertEquals(ProxyProtocol.Mode.OFF, defaults.proxyProtocol().mode());
        SluiceConfig told = parse(
                new String[] {"--upstream", "pulsar://b:1", "--proxy-protocol", "v2"},
                Map.of("SLUICE_PROXY_PROTOCOL_FROM", "10.0.0.0/16"),
                out);
        assertEquals(ProxyProtocol.Mode.V2, told.proxyProtocol().mode());
        assertTrue(told.proxyProtocol().trusted().trusts(new InetSocketAddress("10.0.3.4", 1)));
        assertFalse(told.proxyProtocol().trusted().trusts(new InetSocketAddress("127.0.0.1", 1)));
        assertMessage(
                "invalid --proxy-protocol: expected off, v1, v2 or optional, got 'v3'",
                new String[] {"--upstream", "pulsar://b:1", "--proxy-protocol", "v3"},
                Map.of());
        assertMessage(
                "invalid --proxy-protocol-from: 'lb.example.com' is not an address or a CIDR block",
                new String[] {"--upstream", "pulsar://b:1", "--proxy-protocol-from", "lb.example.com"},
                Map.of());
    }

    @Test
    void incompleteFramesAreBoundedByAQuarterOfTheDirectMemoryAndThirtySecondsUnlessTold() {
        SluiceConfig defaults = parse(new String[] {"--upstream", "pulsar://b:1"}, Map.of(), out);
        assertEquals(PlatformDependent.maxDirectMemory() / 4, defaults.bounds().maxBufferedBytes());
        assertEquals(Duration.ofSeconds(30), defaults.bounds().frameTimeout());

        SluiceConfig told = parse(
                new String[] {"--upstream", "pulsar://b:1", "--max-buffered-bytes", "64MiB", "--frame-timeout", "5"},
                Map.of(),
                out);
        assertEquals(64L << 20, told.bounds().maxBufferedBytes());
        assertEquals(Duration.ofSeconds(5), told.bounds().frameTimeout());
        assertEquals(
                3L << 30,
                parse(new String[] {"--upstream", "pulsar://b:1"}, Map.of("SLUICE_MAX_BUFFERED_BYTES", "3GiB"), out)
                        .bounds()
                        .maxBufferedBytes());
        assertMessage(
                "invalid --max-buffered-bytes: expected a number of bytes such as 67108864 or 64MiB",
                new String[] {"--upstream", "pulsar://b:1", "--max-buffered-bytes", "64MB"},
                Map.of());
        assertMessage(
                "invalid --max-buffered-bytes: must be a positive number of bytes, got 0",
                new String[] {"--upstream", "pulsar://b:1", "--max-buffered-bytes", "0"},
                Map.of());
        assertMessage(
                "invalid --frame-timeout: must be a positive integer, got 0",
                new String[] {"--upstream", "pulsar://b:1", "--frame-timeout", "0"},
                Map.of());
    }

    @Test
    void dnsServersAreAddressesWithPort53UnlessToldAndTheSystemsByDefault() {
        assertEquals(
                List.of(),
                parse(new String[] {"--upstream", "pulsar://b:1"}, Map.of(), out)
                        .dnsServers());
        assertEquals(
                List.of(
                        new InetSocketAddress("10.0.0.2", 53), new InetSocketAddress("127.0.0.1", 5353),
                        new InetSocketAddress("::1", 53), new InetSocketAddress("fd00::1", 54)),
                parse(
                                new String[] {
                                    "--upstream",
                                    "pulsar://b:1",
                                    "--dns-servers",
                                    "10.0.0.2, 127.0.0.1:5353,::1,[fd00::1]:54"
                                },
                                Map.of(),
                                out)
                        .dnsServers());
        assertMessage(
                "invalid --dns-servers: expected IP[:PORT],... (addresses, not names), got 'dns.example'",
                new String[] {"--upstream", "pulsar://b:1", "--dns-servers", "dns.example"},
                Map.of());
        assertMessage(
                "invalid --dns-servers: expected a port of 1 to 65535 in '10.0.0.2:0'",
                new String[] {"--upstream", "pulsar://b:1", "--dns-servers", "10.0.0.2:0"},
                Map.of());
    }

    @Test
    void logsAreTextAtInfoUnlessToldAndBadLogOptionsAreOneLineErrors() {
        SluiceConfig defaults = parse(new String[] {"--upstream", "pulsar://b:1"}, Map.of(), out);
        assertEquals(LogSettings.DEFAULTS, defaults.logging());
        SluiceConfig told = parse(
                new String[] {"--upstream", "pulsar://b:1", "--log-format", "json"},
                Map.of("SLUICE_LOG_LEVELS", "warn,io.sluice.relay=debug"),
                out);
        assertEquals(LogFormat.JSON, told.logging().format());
        assertEquals("warn", told.logging().levels().root());
        assertEquals(Map.of("io.sluice.relay", "debug"), told.logging().levels().loggers());
        assertMessage(
                "invalid --log-format: expected text or json, got 'xml'",
                new String[] {"--upstream", "pulsar://b:1", "--log-format", "xml"},
                Map.of());
        assertMessage(
                "invalid --log-levels",
                new String[] {"--upstream", "pulsar://b:1", "--log-levels", "io.sluice=loud"},
                Map.of());
    }

    @Test
    void badOptionsAreOneLineErrorsNamingTheOption() throws Exception {
        assertMessage("missing --upstream (SLUICE_UPSTREAM) or --kafka-upstream", new String[] {}, Map.of());
        assertMessage("invalid --upstream", new String[] {"--upstream", "http://x:1"}, Map.of());
        assertMessage("Unknown option: '--bogus'", new String[] {"--upstream", "pulsar://b:1", "--bogus"}, Map.of());
        assertMessage("invalid --listen", new String[] {"--upstream", "pulsar://b:1", "--listen", "nope"}, Map.of());
        assertMessage(
                "invalid --lookup-mode", new String[] {"--upstream", "pulsar://b:1", "--lookup-mode", "x"}, Map.of());
        assertMessage(
                "invalid --allowed-brokers",
                new String[] {"--upstream", "pulsar://b:1", "--allowed-brokers", "("},
                Map.of());
        assertMessage(
                "invalid --drain-timeout",
                new String[] {"--upstream", "pulsar://b:1", "--drain-timeout", "-1"},
                Map.of());
        assertMessage(
                "invalid --handshake-timeout: must be a positive integer, got 0",
                new String[] {"--upstream", "pulsar://b:1", "--handshake-timeout", "0"},
                Map.of());
        assertMessage(
                "invalid --handshake-timeout: must be a positive integer, got '1.5'",
                new String[] {"--upstream", "pulsar://b:1", "--handshake-timeout", "1.5"},
                Map.of());
        assertMessage(
                "invalid --admin-idle-timeout: must be a positive integer, got -3",
                new String[] {"--upstream", "pulsar://b:1"},
                Map.of("SLUICE_ADMIN_IDLE_TIMEOUT", "-3"));
        assertMessage(
                "invalid --admin-idle-timeout: must be a positive integer, got 'soon'",
                new String[] {"--upstream", "pulsar://b:1", "--admin-idle-timeout", "soon"},
                Map.of());
        Path yaml = dir.resolve("bad.yaml");
        Files.writeString(yaml, "upstreem: pulsar://b:1\n");
        assertMessage("unknown key 'upstreem'", new String[] {"--config", yaml.toString()}, Map.of());
        assertMessage(
                "cannot read config file",
                new String[] {"--config", dir.resolve("absent.yaml").toString()},
                Map.of());
    }

    @Test
    void clusterOptionsDefaultToLimitsOfThisSluiceAloneAndAreChecked() throws Exception {
        SluiceConfig alone = parse(new String[] {"--upstream", "pulsar://b:1"}, Map.of(), out);
        assertFalse(alone.cluster().enabled());
        assertEquals("sluice", alone.cluster().clusterId());
        assertEquals(Duration.ofSeconds(1), alone.cluster().syncInterval());
        assertEquals(ClusterSettings.LimitsSource.FILE, alone.cluster().limitsSource());

        Path yaml = dir.resolve("sluice.yaml");
        Files.writeString(
                yaml,
                "upstream: pulsar://b:1\nclusterStore: rediss://redis:6380/1\nclusterId: prod-eu\n"
                        + "clusterSyncInterval: 500ms\nlimitsSource: store\n");
        SluiceConfig shared = parse(
                new String[] {"--config", yaml.toString()},
                Map.of("SLUICE_CLUSTER_STORE_PASSWORD", "s3cret", "SLUICE_CLUSTER_SYNC_INTERVAL", "2s"),
                out);
        assertTrue(shared.cluster().enabled());
        assertEquals("rediss://redis:6380/1", shared.cluster().storeUrl());
        assertEquals("s3cret", shared.cluster().storePassword());
        assertEquals("prod-eu", shared.cluster().clusterId());
        assertEquals(Duration.ofSeconds(2), shared.cluster().syncInterval(), "env over file");
        assertEquals(ClusterSettings.LimitsSource.STORE, shared.cluster().limitsSource());

        assertMessage(
                "invalid --cluster-store: expected redis://host:port[/db]",
                new String[] {"--upstream", "pulsar://b:1", "--cluster-store", "http://redis:6379"},
                Map.of());
        assertMessage(
                "invalid --cluster-id", new String[] {"--upstream", "pulsar://b:1", "--cluster-id", "a b"}, Map.of());
        assertMessage(
                "invalid --cluster-sync-interval: expected a duration such as 500ms, 2s or 1m, got 'soon'",
                new String[] {"--upstream", "pulsar://b:1", "--cluster-sync-interval", "soon"},
                Map.of());
        assertMessage(
                "invalid --cluster-sync-interval: must be between 100ms and 1m, got 10ms",
                new String[] {"--upstream", "pulsar://b:1", "--cluster-sync-interval", "10ms"},
                Map.of());
        assertMessage(
                "invalid --limits-source: expected file or store, got 'redis'",
                new String[] {"--upstream", "pulsar://b:1", "--limits-source", "redis"},
                Map.of());
        assertMessage(
                "--limits-source store needs --cluster-store",
                new String[] {"--upstream", "pulsar://b:1", "--limits-source", "store"},
                Map.of());
    }

    @Test
    void kafkaAloneStartsOnlyTheKafkaFrontEndWithTheDocumentedDefaults() throws Exception {
        SluiceConfig config = parse(new String[] {"--kafka-upstream", "k1:9092, k2:9093"}, Map.of(), out);
        assertNull(pulsar(config), "no Pulsar front end");
        KafkaConfig kafka = kafka(config);
        assertEquals(List.of(new BrokerEndpoint("k1", 9092), new BrokerEndpoint("k2", 9093)), kafka.upstream());
        assertEquals(new HostPort("0.0.0.0", 9092), kafka.listen());
        assertEquals(9093, kafka.nodePortBase(), "the listen port + 1");
        assertEquals(
                InetAddress.getLocalHost().getHostName(), kafka.advertisedHost(), "the machine's name for a wildcard");
        assertEquals(RoutingMode.REWRITE, kafka.addressMode());
    }

    @Test
    void kafkaOptionsComeFromFlagsEnvironmentAndFileAndBothFrontEndsMayRun() throws Exception {
        Path yaml = dir.resolve("sluice.yaml");
        Files.writeString(
                yaml, "kafkaUpstream: from-file:9092\nkafkaAddressMode: passthrough\nkafkaNodePortBase: 30000\n");
        SluiceConfig config = parse(
                new String[] {
                    "--config", yaml.toString(), "--upstream", "pulsar://b:6650", "--kafka-listen", "10.0.0.5:19092"
                },
                Map.of("SLUICE_KAFKA_UPSTREAM", "from-env:9092"),
                out);
        assertEquals("b", pulsar(config).upstream().host());
        assertEquals(
                List.of(new BrokerEndpoint("from-env", 9092)), kafka(config).upstream(), "env over file");
        assertEquals(RoutingMode.PASSTHROUGH, kafka(config).addressMode());
        assertEquals(30000, kafka(config).nodePortBase());
        assertEquals("10.0.0.5", kafka(config).advertisedHost(), "the listen host when it is not a wildcard");
    }

    @Test
    void badKafkaOptionsAreOneLineErrorsNamingTheOption() {
        assertMessage("invalid --kafka-upstream", new String[] {"--kafka-upstream", "k1"}, Map.of());
        assertMessage(
                "invalid --kafka-address-mode",
                new String[] {"--kafka-upstream", "k:1", "--kafka-address-mode", "x"},
                Map.of());
        assertMessage(
                "invalid --kafka-node-port-base: must be set when --kafka-listen picks a free port",
                new String[] {"--kafka-upstream", "k:1", "--kafka-listen", "127.0.0.1:0"},
                Map.of());
        assertMessage(
                "invalid --kafka-node-port-base",
                new String[] {"--kafka-upstream", "k:1", "--kafka-node-port-base", "70000"},
                Map.of());
    }

    @Test
    void theLookupLoginTakesAllThreeOptionsAndAReadablePasswordFile() throws Exception {
        Path password = Files.writeString(dir.resolve("password"), "secret\n");
        SluiceConfig config = parse(
                new String[] {"--kafka-upstream", "k:9092", "--kafka-lookup-sasl-mechanism", "SCRAM-SHA-512"},
                Map.of(
                        "SLUICE_KAFKA_LOOKUP_SASL_USERNAME",
                        "sluice",
                        "SLUICE_KAFKA_LOOKUP_SASL_PASSWORD_FILE",
                        password.toString()),
                out);
        assertEquals(
                new LookupLogin("SCRAM-SHA-512", "sluice", password),
                kafka(config).lookupLogin());
        assertNull(kafka(parse(new String[] {"--kafka-upstream", "k:9092"}, Map.of(), out))
                .lookupLogin());
        assertMessage(
                "invalid --kafka-lookup-sasl-mechanism: it, --kafka-lookup-sasl-username and"
                        + " --kafka-lookup-sasl-password-file go together",
                new String[] {"--kafka-upstream", "k:9092", "--kafka-lookup-sasl-username", "sluice"},
                Map.of());
        assertMessage(
                "invalid --kafka-lookup-sasl-mechanism: must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, got GSSAPI",
                new String[] {
                    "--kafka-upstream", "k:9092",
                    "--kafka-lookup-sasl-mechanism", "GSSAPI",
                    "--kafka-lookup-sasl-username", "sluice",
                    "--kafka-lookup-sasl-password-file", password.toString()
                },
                Map.of());
        assertMessage(
                "invalid --kafka-lookup-sasl-password-file: cannot read " + dir.resolve("absent"),
                new String[] {
                    "--kafka-upstream", "k:9092",
                    "--kafka-lookup-sasl-mechanism", "PLAIN",
                    "--kafka-lookup-sasl-username", "sluice",
                    "--kafka-lookup-sasl-password-file", dir.resolve("absent").toString()
                },
                Map.of());
    }

    @Test
    void helpPrintsUsageAndStartsNothing() {
        ByteArrayOutputStream usage = new ByteArrayOutputStream();
        assertNull(parse(new String[] {"--help"}, Map.of(), new PrintStream(usage)));
        assertTrue(usage.toString().contains("--upstream"));
    }

    private static PulsarConfig pulsar(SluiceConfig config) {
        return config.frontEnd(PulsarConfig.class);
    }

    private static KafkaConfig kafka(SluiceConfig config) {
        return config.frontEnd(KafkaConfig.class);
    }

    private void assertMessage(String expected, String[] args, Map<String, String> env) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(args, env, out));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }
}
