package io.sluice.deploy;

import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code helm lint --strict} passes in both modes; a chart that does not lint fails the build. */
class ChartLintTest {

    @Test
    void chartLintsWithItsDefaults() {
        assertClean(Chart.lint(Repo.chart()), "sidecar (default values)");
    }

    @Test
    void chartLintsInProxyModeWithTheBundledStoreAndANetworkPolicy(@TempDir Path copy) throws IOException {
        // helm lint reads only the chart's own values.yaml, so lint a copy whose defaults say proxy
        // (two replicas, so with the bundled store) and render the optional objects too.
        copyTree(Repo.chart(), copy);
        Path values = copy.resolve("values.yaml");
        String original = Files.readString(values);
        String proxy = replaceOnce(original, "(?m)^mode: sidecar$", "mode: proxy");
        proxy = replaceOnce(proxy, "(?m)^upstream: \"\"$", "upstream: \"pulsar://pulsar-broker:6650\"");
        proxy = replaceOnce(proxy, "(?m)^(  bundledStore:\n    enabled:) false$", "$1 true");
        proxy = replaceOnce(proxy, "(?m)^(networkPolicy:\n  enabled:) false$", "$1 true");
        Files.writeString(values, proxy);
        assertClean(Chart.lint(copy), "proxy");
    }

    private static String replaceOnce(String text, String regex, String replacement) {
        String replaced = text.replaceFirst(regex, replacement);
        assertNotEquals(text, replaced, "values.yaml no longer matches " + regex);
        return replaced;
    }

    private static void assertClean(LintResult result, String what) {
        List<String> problems = result.getMessages().stream()
                .filter(m -> m.contains("[ERROR]") || m.contains("[WARNING]"))
                .toList();
        assertFalse(result.isFailed(), what + ": helm lint failed: " + result.getMessages());
        assertTrue(problems.isEmpty(), what + ": " + problems);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
