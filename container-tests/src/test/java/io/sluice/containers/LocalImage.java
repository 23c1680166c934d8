package io.sluice.containers;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A broker image the tests build on the local JRE base from the very jars the testkit runs that
 * broker from (a classpath resource the testkit's build writes), so no broker image is pulled.
 * Each is labelled with a fingerprint of its inputs: later runs reuse it while the inputs stay the
 * same and rebuild it when they change.
 */
final class LocalImage {

    private static final String FINGERPRINT_LABEL = "io.sluice.test.fingerprint";

    private LocalImage() {}

    /**
     * Builds {@code tag} in {@code scratch}, unless the engine already has it from the same inputs,
     * from a context of {@code files} (each path in the context to its text, the Dockerfile among
     * them) and {@code jars} in {@code lib/}, with the build argument {@code BASE_IMAGE} naming
     * {@link BaseImages#JRE}. The scratch directory is emptied before and after the build; the image
     * the new one replaces is removed.
     */
    static void ensure(String tag, Path scratch, Map<String, String> files, List<Path> jars) {
        String fingerprint = fingerprint(files, jars);
        if (fingerprint.equals(Docker.label(tag, FINGERPRINT_LABEL))) {
            System.out.println("container-tests: " + tag + " present");
            return;
        }
        String previous = Docker.hasImage(tag) ? Docker.imageId(tag) : null;
        long start = System.nanoTime();
        try {
            deleteRecursively(scratch);
            for (Map.Entry<String, String> file : files.entrySet()) {
                Path path = scratch.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue());
            }
            linkJars(jars, Files.createDirectories(scratch.resolve("lib")));
            Docker.run(
                    Duration.ofMinutes(10),
                    "build",
                    "-q",
                    "-t",
                    tag,
                    "--label",
                    FINGERPRINT_LABEL + "=" + fingerprint,
                    "--build-arg",
                    "BASE_IMAGE=" + BaseImages.JRE,
                    scratch.toString());
            deleteRecursively(scratch);
            if (previous != null) {
                Docker.removeImageIfUnused(previous);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot assemble the build context of " + tag + " in " + scratch, e);
        }
        System.out.printf("container-tests: built %s in %.1f s%n", tag, (System.nanoTime() - start) / 1e9);
    }

    /**
     * The jars of a classpath resource the testkit's build wrote (e.g. {@code broker.classpath} next
     * to {@code anchor}), checked to exist and to have distinct names: they all go to one lib/.
     */
    static List<Path> classpathJars(Class<?> anchor, String resource) {
        List<Path> jars = Stream.of(resource(anchor, resource).strip().split(File.pathSeparator))
                .map(Path::of)
                .toList();
        Set<String> names = new HashSet<>();
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException(
                        resource + " names a missing jar, " + jar + "; build the testkit again (-am does)");
            }
            if (!names.add(jar.getFileName().toString())) {
                throw new IllegalStateException("two jars of " + resource + " are named " + jar.getFileName()
                        + "; lib/ in the image needs distinct names");
            }
        }
        return jars;
    }

    /** The version in the name of the one jar matching {@code jarName} (its group 1): the image's tag. */
    static String version(List<Path> jars, Pattern jarName) {
        return jars.stream()
                .map(jar -> jarName.matcher(jar.getFileName().toString()))
                .filter(Matcher::matches)
                .map(m -> m.group(1))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no jar matching " + jarName + " among " + jars));
    }

    /** A resource the testkit generates or ships next to {@code anchor}. */
    static String resource(Class<?> anchor, String name) {
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing next to " + anchor.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A java command line as a java {@code @argfile}, one argument per line: {@code flags}, the jars
     * under {@code lib} in the build's order, then the main class and its arguments.
     */
    static String javaArgs(String lib, List<Path> jars, List<String> flags, String mainClass, String... mainArgs) {
        List<String> args = new ArrayList<>(flags);
        args.add("-cp");
        args.add(jars.stream().map(jar -> lib + jar.getFileName()).collect(Collectors.joining(":")));
        args.add(mainClass);
        args.addAll(List.of(mainArgs));
        return String.join("\n", args) + "\n";
    }

    /** A properties file of the module's src/test/docker, e.g. a broker's configuration. */
    static Properties properties(Path file) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(read(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    /** A file of the module's src/test/docker, as text. */
    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the image is made of: every file's path and text, the base image's ID, and each jar's name and size. */
    private static String fingerprint(Map<String, String> files, List<Path> jars) {
        StringBuilder inputs = new StringBuilder();
        new TreeMap<>(files)
                .forEach((path, text) ->
                        inputs.append(path).append('\n').append(text).append('\0'));
        inputs.append(Docker.imageId(BaseImages.JRE)).append('\n');
        try {
            for (Path jar : jars) {
                inputs.append(jar.getFileName())
                        .append(' ')
                        .append(Files.size(jar))
                        .append('\n');
            }
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(inputs.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Hard links where the file system allows them (the jars are large), copies otherwise. */
    private static void linkJars(List<Path> jars, Path lib) throws IOException {
        for (Path jar : jars) {
            Path link = lib.resolve(jar.getFileName());
            try {
                Files.createLink(link, jar);
            } catch (IOException | UnsupportedOperationException e) {
                Files.copy(jar, link);
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
