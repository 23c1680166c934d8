package io.sluice.containers;

import io.sluice.testkit.pulsar.PulsarBroker;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
        List<Path> jars = LocalImage.classpathJars(PulsarBroker.class, "broker.classpath");
        String version = jars.stream().map(jar -> BROKER_JAR.matcher(jar.getFileName().toString()))
                .filter(Matcher::matches).map(m -> m.group(1)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no pulsar-broker jar on the broker classpath"));
        String imageTag = "local/sluice-test-pulsar:" + version;
        Path source = Locations.dockerDir().resolve("pulsar-broker");
        String dockerfile = LocalImage.read(source.resolve("Dockerfile"));
        String brokerConf = LocalImage.read(source.resolve("broker.conf"));
        String javaArgs = javaArgs(jars);
        String log4j = LocalImage.resource(PulsarBroker.class, "log4j2-broker.xml");
        LocalImage.ensure(imageTag, LocalImage.fingerprint(jars, dockerfile, brokerConf, javaArgs, log4j),
                Locations.workDir().resolve("pulsar-broker"), context -> {
                    Files.writeString(context.resolve("Dockerfile"), dockerfile);
                    Files.writeString(context.resolve("broker.conf"), brokerConf);
                    Path conf = Files.createDirectories(context.resolve("conf"));
                    Files.writeString(conf.resolve("java.args"), javaArgs);
                    Files.writeString(conf.resolve("log4j2.xml"), log4j);
                    LocalImage.linkJars(jars, context.resolve("lib"));
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

    private static synchronized Properties config() {
        if (config == null) {
            Properties properties = new Properties();
            try {
                properties.load(new StringReader(LocalImage.read(Locations.dockerDir().resolve("pulsar-broker/broker.conf"))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            config = properties;
        }
        return config;
    }
}
