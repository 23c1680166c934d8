package io.sluice.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The seed inputs of a Jazzer fuzz test, read from where Jazzer itself reads them in regression
 * mode: the test resources directory {@code <package>/<Class>Inputs/<method>/}.
 */
public final class FuzzCorpus {

    private FuzzCorpus() {}

    /** Every file of {@code testClass}'s inputs for {@code method}, in name order; empty when there are none. */
    public static List<byte[]> of(Class<?> testClass, String method) {
        URL dir = testClass.getResource(testClass.getSimpleName() + "Inputs/" + method);
        if (dir == null) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            List<byte[]> inputs = new ArrayList<>();
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                inputs.add(Files.readAllBytes(file));
            }
            return inputs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
