package io.sluice.server;

import io.sluice.frontend.FrontEndFactory;
import io.sluice.frontend.FrontEndOption;
import io.sluice.kafka.scopes.KafkaScopes;
import io.sluice.limits.ProtocolScopes;
import io.sluice.limits.ScopeKind;
import io.sluice.pulsar.scopes.PulsarScopes;
import io.sluice.relay.ProxyStats;
import io.sluice.testkit.tls.CertificateAuthority;
import io.sluice.testkit.tls.CertificateAuthority.IssuedCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static io.sluice.server.OpenAdminParse.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The front ends as the server finds them (ServiceLoader, docs/ARCHITECTURE.md, "Where a new front
 * end plugs in"), and what it owes each: its options, its scope kinds, its own TLS failures.
 */
class FrontEndRegistrationTest {

    @TempDir
    Path dir;

    @Test
    void pulsarAndKafkaAreInstalledInTheOrderOfTheirEnablingOptions() {
        assertEquals(
                List.of("--upstream", "--kafka-upstream"),
                FrontEndFactory.installed().stream()
                        .map(FrontEndFactory::enablingOption)
                        .toList());
    }

    @Test
    void noTwoFrontEndsShareAnOptionAndEachDeclaresTheOptionThatEnablesIt() {
        Set<String> names = new HashSet<>();
        for (FrontEndFactory frontEnd : FrontEndFactory.installed()) {
            List<String> own =
                    frontEnd.options().stream().map(FrontEndOption::name).toList();
            assertTrue(
                    own.contains(frontEnd.enablingOption()), frontEnd.getClass().getName());
            for (String name : own) {
                assertTrue(names.add(name), name + " is declared twice");
            }
        }
    }

    @Test
    void everyScopeKindButTheEnginesOwnBelongsToExactlyOneFrontEnd() {
        List<ScopeKind> registered = new ArrayList<>();
        Set<String> protocols = new HashSet<>();
        for (FrontEndFactory frontEnd : FrontEndFactory.installed()) {
            ProtocolScopes scopes = frontEnd.scopes();
            assertTrue(protocols.add(scopes.protocol()), scopes.protocol() + " is declared twice");
            registered.addAll(scopes.kinds());
        }
        assertEquals(
                List.of(
                        PulsarScopes.TOPIC,
                        PulsarScopes.NAMESPACE,
                        PulsarScopes.TENANT,
                        PulsarScopes.ROLE,
                        KafkaScopes.TOPIC,
                        KafkaScopes.PREFIX,
                        KafkaScopes.CLIENT,
                        KafkaScopes.PRINCIPAL,
                        KafkaScopes.GROUP),
                registered);
        List<ScopeKind> catalogued =
                new ArrayList<>(SluiceServer.scopeCatalogue().kinds());
        assertTrue(catalogued.remove(ScopeKind.PROXY));
        assertTrue(catalogued.remove(ScopeKind.IPS));
        assertEquals(new HashSet<>(registered), new HashSet<>(catalogued), "the server's catalogue holds them all");
        assertEquals(registered.size(), catalogued.size(), "no kind registered twice: " + registered);
    }

    @Test
    void aFailedReloadOfTheSharedPortFilesCountsOnceAndForEachFrontEndThatUsesThem() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create(dir, "registration CA");
        IssuedCertificate issued = ca.issue("sluice").hosts("localhost").write();
        Path certificate = dir.resolve("tls.crt");
        Path key = dir.resolve("tls.key");
        issued.copyTo(certificate, key);
        SluiceConfig parsed = parse(
                new String[] {
                    "--upstream", "pulsar://b:6650",
                    "--kafka-upstream", "k:9092",
                    "--kafka-listen", "127.0.0.1:19092",
                    "--tls-cert", certificate.toString(),
                    "--tls-key", key.toString()
                },
                Map.of(),
                new PrintStream(new ByteArrayOutputStream()));
        List<ProxyStats> stats = List.of(new ProxyStats("pulsar"), new ProxyStats("kafka"));
        try (SecretFiles secrets = SecretFiles.open(parsed, stats, Duration.ofMillis(50))) {
            Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n");
            await(() -> secrets.tlsReloadFailures() == 1);
            Thread.sleep(200);
            assertEquals(1, secrets.tlsReloadFailures(), "once for the process: the admin port follows the ports");
            assertEquals(1, stats.get(0).tlsReloadFailures(), "the Pulsar port uses the files");
            assertEquals(1, stats.get(1).tlsReloadFailures(), "the Kafka ports use the files");
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 10 s");
            Thread.sleep(20);
        }
    }
}
