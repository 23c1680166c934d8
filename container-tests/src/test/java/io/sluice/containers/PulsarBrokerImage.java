package io.sluice.containers;

import io.sluice.testkit.pulsar.PulsarBroker;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Pulsar standalone broker image made of the very jars every other test runs as a child JVM
 * (testkit's {@code broker.classpath} resource), on the local JRE base, so no Pulsar image is
 * pulled. {@code src/test/docker/pulsar-broker} holds its Dockerfile and {@code broker.conf}; the
 * jars, the java command line and the log configuration are added to the build context here. The
 * image is rebuilt only when one of those changed ({@link LocalImage}).
 */
final class PulsarBrokerImage {

    private static final String MAIN_CLASS = "org.apache.pulsar.PulsarStandaloneStarter";
    private static final Pattern BROKER_JAR = Pattern.compile("pulsar-broker-(\\d+\\.\\d+\\.\\d+)\\.jar");
    private static final String LIB = "/opt/pulsar/lib/";
    private static final String CONF = "/opt/pulsar/conf/";

    private static Properties config;
    private static String tag;

    private PulsarBrokerImage() {
    }

    /** The name the broker advertises, which is its network alias: how Sluice's container reaches it. */
    static String host() {
        return config().getProperty("advertisedAddress");
    }

    /** The broker's Pulsar protocol port inside its container. */
    static int brokerPort() {
        return Integer.parseInt(config().getProperty("brokerServicePort"));
    }

    /** The broker's HTTP admin port inside its container. */
    static int webPort() {
        return Integer.parseInt(config().getProperty("webServicePort"));
    }

    /** Builds the image unless the engine has it from the same inputs, and returns its tag. */
    static synchronized String ensure() {
        if (tag != null) {
            return tag;
        }
        BaseImages.ensure();
        List<Path> jars = brokerJars();
        String version = jars.stream().map(jar -> BROKER_JAR.matcher(jar.getFileName().toString()))
                .filter(Matcher::matches).map(m -> m.group(1)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no pulsar-broker jar on the broker classpath"));
        String imageTag = "local/sluice-test-pulsar:" + version;
        Path source = Locations.dockerDir().resolve("pulsar-broker");
        String javaArgs = javaArgs(jars);
        String log4j = resource("log4j2-broker.xml");
        StringBuilder inputs = new StringBuilder()
                .append(read(source.resolve("Dockerfile"))).append(read(source.resolve("broker.conf")))
                .append(javaArgs).append(log4j).append(Docker.imageId(BaseImages.JRE));
        for (Path jar : jars) {
            inputs.append(jar.getFileName()).append(' ').append(size(jar)).append('\n');
        }
        LocalImage.ensure(imageTag, sha256(inputs.toString()), Locations.workDir().resolve("pulsar-broker"), context -> {
            Files.copy(source.resolve("Dockerfile"), context.resolve("Dockerfile"));
            Files.copy(source.resolve("broker.conf"), context.resolve("broker.conf"));
            Path conf = Files.createDirectories(context.resolve("conf"));
            Files.writeString(conf.resolve("java.args"), javaArgs);
            Files.writeString(conf.resolve("log4j2.xml"), log4j);
            Path lib = Files.createDirectories(context.resolve("lib"));
            for (Path jar : jars) {
                link(jar, lib.resolve(jar.getFileName()));
            }
        }, Map.of("BASE_IMAGE", BaseImages.JRE));
        tag = imageTag;
        return tag;
    }

    /** The java command line, one argument per line (a java @argfile), with the jars in the build's order. */
    private static String javaArgs(List<Path> jars) {
        List<String> args = new ArrayList<>();
        args.add("-Xmx256m");
        args.addAll(PulsarBroker.PULSAR_JVM_FLAGS);
        args.add("-Dlog4j2.configurationFile=" + CONF + "log4j2.xml");
        args.add("-cp");
        args.add(jars.stream().map(jar -> LIB + jar.getFileName()).collect(Collectors.joining(":")));
        args.add(MAIN_CLASS);
        args.addAll(List.of("--config", CONF + "broker.conf", "--no-functions-worker", "--no-stream-storage",
                "--metadata-dir", "/var/lib/pulsar/metadata", "--bookkeeper-dir", "/var/lib/pulsar/bookkeeper"));
        return String.join("\n", args) + "\n";
    }

    /** The broker's jars as testkit's build resolved them, checked to exist and to have distinct names. */
    private static List<Path> brokerJars() {
        List<Path> jars = Stream.of(resource("broker.classpath").strip().split(java.io.File.pathSeparator))
                .map(Path::of).toList();
        Set<String> names = new HashSet<>();
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("the broker classpath names a missing jar, " + jar
                        + "; build testkit again (-am does)");
            }
            if (!names.add(jar.getFileName().toString())) {
                throw new IllegalStateException("two broker jars are named " + jar.getFileName()
                        + "; lib/ in the image needs distinct names");
            }
        }
        return jars;
    }

    private static synchronized Properties config() {
        if (config == null) {
            Properties properties = new Properties();
            try {
                properties.load(new StringReader(read(Locations.dockerDir().resolve("pulsar-broker/broker.conf"))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            config = properties;
        }
        return config;
    }

    /** A resource testkit generates or ships next to {@link PulsarBroker}. */
    private static String resource(String name) {
        try (InputStream in = PulsarBroker.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing next to " + PulsarBroker.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A hard link where the file system allows one (the jars are large), a copy otherwise. */
    private static void link(Path existing, Path link) throws IOException {
        try {
            Files.createLink(link, existing);
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(existing, link);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
