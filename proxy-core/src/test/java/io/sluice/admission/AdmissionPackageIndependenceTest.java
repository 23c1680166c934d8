package io.sluice.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Admission control must stay usable from any front end: no Netty, protobuf, Pulsar or other Sluice package. */
class AdmissionPackageIndependenceTest {

    private static final Path SOURCES = Path.of("src/main/java/io/sluice/admission");
    private static final Pattern FOREIGN_IMPORT = Pattern.compile(
            "^import\\s+(static\\s+)?(io\\.netty|com\\.google\\.protobuf|org\\.apache\\.pulsar|io\\.sluice\\.(?!admission\\.))",
            Pattern.MULTILINE);

    @Test
    void importsNothingProtocolSpecific() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), "run from the proxy-core module directory");
        List<String> offenders;
        try (Stream<Path> files = Files.list(SOURCES)) {
            offenders = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> FOREIGN_IMPORT.matcher(read(file)).find())
                    .map(Path::toString)
                    .toList();
        }
        assertEquals(List.of(), offenders);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
