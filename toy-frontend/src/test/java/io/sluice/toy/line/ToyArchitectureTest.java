package io.sluice.toy.line;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * The toy front end stays the proof it is: built from the relay, the front-end API and the engine's
 * limits, quotas and meters alone, with nothing of the server, the admin API or another front end.
 */
class ToyArchitectureTest {

    /** The tests and their upstream use the server and its CLI, as a user would; the front end itself does not. */
    private static final List<Class<?>> HARNESS =
            List.of(LineFrontEndTest.class, LineUpstream.class, ToyArchitectureTest.class);

    @Test
    void theToyFrontEndUsesOnlyTheRelayTheRegistrationAndTheEngine() throws Exception {
        ArchRule rule = classes()
                .that()
                .resideInAPackage("io.sluice.toy.line..")
                .and(DescribedPredicate.describe(
                        "are not the tests' harness",
                        (JavaClass c) -> HARNESS.stream().noneMatch(c::isEquivalentTo)))
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "io.sluice.toy.line..",
                        "io.sluice.relay..",
                        "io.sluice.frontend..",
                        "io.sluice.limits..",
                        "io.sluice.quota..",
                        "io.sluice.status..",
                        "io.sluice.settings..",
                        "io.netty..",
                        "java..",
                        "javax.net..");
        rule.check(new ClassFileImporter()
                .importPath(Path.of(LineScopes.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())));
    }
}
