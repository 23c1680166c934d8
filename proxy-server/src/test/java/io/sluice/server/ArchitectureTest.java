package io.sluice.server;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The boundaries of docs/ARCHITECTURE.md, checked on the compiled classes: the engine knows no
 * Netty and no protocol, the relay and the front-end API know no protocol, front ends do not know
 * each other, the server knows front ends only through their registration, and no two packages
 * depend on each other in a circle.
 */
@AnalyzeClasses(
        packages = "io.sluice",
        importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureTest.NoTestJars.class})
class ArchitectureTest {

    /** Leaves out other modules' test-jars (the relay's test kit), which are test code like this module's own tests. */
    static final class NoTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar");
        }
    }

    private static final String[] ENGINE = {
        "io.sluice.limits..",
        "io.sluice.quota..",
        "io.sluice.admission..",
        "io.sluice.status..",
        "io.sluice.settings..",
        "io.sluice.cluster.."
    };

    /** Every protocol's code, its scope kinds included: its front end's module. */
    private static final String[] PROTOCOLS = {"io.sluice.pulsar..", "io.sluice.kafka.."};

    @ArchTest
    static final ArchRule theEngineKnowsNoNettyAndNoFrontEnd = noClasses()
            .that()
            .resideInAnyPackage(ENGINE)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "io.netty..",
                    "com.google.protobuf..",
                    "io.sluice.relay..",
                    "io.sluice.frontend..",
                    "io.sluice.pulsar..",
                    "io.sluice.kafka..",
                    "io.sluice.admin..",
                    "io.sluice.server..")
            .because("the engine is shared by every front end and unit-tested without sockets");

    @ArchTest
    static final ArchRule theCliKnowsNoFrontEndAndNoServer = noClasses()
            .that()
            .resideInAPackage("io.sluice.cli..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "io.sluice.pulsar..",
                    "io.sluice.kafka..",
                    "io.sluice.frontend..",
                    "io.sluice.admin..",
                    "io.sluice.relay..",
                    "io.sluice.server..")
            .because("the CLI is a client of the REST API and learns the scopes from GET /api/v1/scopes");

    @ArchTest
    static final ArchRule theRelayKnowsNoProtocol = noClasses()
            .that()
            .resideInAPackage("io.sluice.relay..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(PROTOCOLS)
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage("io.sluice.admin..", "io.sluice.server..");

    @ArchTest
    static final ArchRule theFrontEndApiKnowsNoProtocol = noClasses()
            .that()
            .resideInAPackage("io.sluice.frontend..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(PROTOCOLS)
            .orShould()
            .dependOnClassesThat()
            .resideInAnyPackage("io.sluice.admin..", "io.sluice.server..")
            .because("every front end registers through it alike, and the server sees nothing else of them");

    @ArchTest
    static final ArchRule theServerNamesNoProtocol = noClasses()
            .that()
            .resideInAPackage("io.sluice.server..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(PROTOCOLS)
            .because("front ends register through io.sluice.frontend and ServiceLoader: a new one touches no"
                    + " server code");

    @ArchTest
    static final ArchRule theRelayKnowsNoFrontEndApi = noClasses()
            .that()
            .resideInAPackage("io.sluice.relay..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.sluice.frontend..")
            .because("the front-end API stands on the relay, not under it");

    @ArchTest
    static final ArchRule pulsarKnowsNoOtherFrontEnd = noClasses()
            .that()
            .resideInAPackage("io.sluice.pulsar..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.sluice.kafka..", "io.sluice.admin..", "io.sluice.server..");

    @ArchTest
    static final ArchRule kafkaKnowsNoOtherFrontEnd = noClasses()
            .that()
            .resideInAPackage("io.sluice.kafka..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.sluice.pulsar..", "io.sluice.admin..", "io.sluice.server..")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule theAdminApiReachesNoConnection = noClasses()
            .that()
            .resideInAPackage("io.sluice.admin..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.sluice.pulsar..", "io.sluice.kafka..", "io.sluice.server..")
            .because("limits change through the store and figures are read from the engine's counters");

    @ArchTest
    static final ArchRule gatesDoNotSeeTheConnection = noClasses()
            .that()
            .resideInAnyPackage("io.sluice.pulsar.gates..", "io.sluice.pulsar.lookup..", "io.sluice.pulsar.codec..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.sluice.pulsar.connection..")
            .because("gates get a narrow Outbound, never the connection or its pipeline");

    @ArchTest
    static final ArchRule theEngineKnowsNoRedis = noClasses()
            .that()
            .resideInAnyPackage(ENGINE)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.lettuce..", "io.sluice.redis..")
            .because("the cluster sync is unit-tested with a store in memory; Redis is one store behind ClusterStore");

    @ArchTest
    static final ArchRule theRedisStoreKnowsOnlyTheEngine = noClasses()
            .that()
            .resideInAPackage("io.sluice.redis..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "io.sluice.relay..",
                    "io.sluice.pulsar..",
                    "io.sluice.kafka..",
                    "io.sluice.admin..",
                    "io.sluice.server..");

    @ArchTest
    static final ArchRule noPackageCycles =
            slices().matching("io.sluice.(**)").should().beFreeOfCycles();
}
