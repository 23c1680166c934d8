package io.sluice.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paths of a frame through Sluice in docs/ARCHITECTURE.md name real files: each {@code
 * package/Class} a path's steps name (a class's method, {@code Class.method}, counts as its class)
 * is a source file of some module, so that a class renamed, moved or split shows up here and not
 * in a reader's confusion.
 */
class ArchitecturePathsTest {

    private static final Path ROOT = Path.of("..");
    private static final List<String> PATHS = List.of(
            "## The path of one SEND and its receipt", "## The path of one Kafka ProduceRequest and its response");
    /** A backticked file: lower-case packages, then a class, then perhaps a member. */
    private static final Pattern FILE =
            Pattern.compile("`((?:[a-z][a-z0-9]*/)+)([A-Z][A-Za-z0-9]*)(?:\\.[A-Za-z0-9_]+)?`");

    @Test
    void everyFileAPathNamesExists() throws IOException {
        List<Path> sources = sources();
        List<String> missing = new ArrayList<>();
        for (String section : PATHS) {
            Set<String> named = filesNamedIn(section);
            assertTrue(named.size() >= 5, section + " names only " + named);
            for (String file : named) {
                String suffix = "/io/sluice/" + file + ".java";
                // A front end's path names its own packages from below io/sluice/<protocol>/ as well.
                String shortSuffix = "/" + file + ".java";
                boolean found = sources.stream()
                        .map(path -> path.toString().replace('\\', '/'))
                        .anyMatch(path -> path.endsWith(suffix) || path.endsWith(shortSuffix));
                if (!found) {
                    missing.add(section.substring(3) + ": " + file);
                }
            }
        }
        assertEquals(List.of(), missing, "files docs/ARCHITECTURE.md names that no module has");
    }

    /** The {@code package/Class} names in one section of docs/ARCHITECTURE.md, in order. */
    private static Set<String> filesNamedIn(String heading) throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("docs").resolve("ARCHITECTURE.md"));
        int start = lines.indexOf(heading);
        assertTrue(start >= 0, "docs/ARCHITECTURE.md has no section " + heading);
        StringBuilder section = new StringBuilder();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            section.append(lines.get(i)).append('\n');
        }
        Set<String> named = new LinkedHashSet<>();
        Matcher file = FILE.matcher(section);
        while (file.find()) {
            named.add(file.group(1) + file.group(2));
        }
        return named;
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT, 12)) {
            return files.filter(path -> path.toString().endsWith(".java"))
                    .filter(path -> path.toString().contains("src/main/java"))
                    .toList();
        }
    }
}
