package io.sluice.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The quota package must stay reusable by any front end: it imports no Netty and no other Sluice package. */
class QuotaPackageIndependenceTest {

    private static final Path SOURCES = Path.of("src/main/java/io/sluice/quota");
    private static final Pattern FORBIDDEN = Pattern.compile("^import\\s+(static\\s+)?(io\\.netty|com\\.google\\.protobuf|org\\.apache\\.pulsar|io\\.sluice\\.(?!quota\\.))",
            Pattern.MULTILINE);

    @Test
    void importsNothingProtocolSpecific() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), "run from the proxy-core module directory");
        List<String> offenders;
        try (Stream<Path> files = Files.list(SOURCES)) {
            offenders = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> {
                        try {
                            return FORBIDDEN.matcher(Files.readString(file)).find();
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(Path::toString)
                    .toList();
        }
        assertEquals(List.of(), offenders);
    }
}
