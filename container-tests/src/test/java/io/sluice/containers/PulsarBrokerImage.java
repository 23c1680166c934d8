package io.sluice.containers;

import io.sluice.testkit.pulsar.PulsarBroker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

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

    private PulsarBrokerImage() {}

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
        String imageTag = "local/sluice-test-pulsar:" + LocalImage.version(jars, BROKER_JAR);
        Path source = Locations.dockerDir().resolve("pulsar-broker");
        LocalImage.ensure(
                imageTag,
                Locations.workDir().resolve("pulsar-broker"),
                Map.of(
                        "Dockerfile", LocalImage.read(source.resolve("Dockerfile")),
                        "broker.conf", LocalImage.read(source.resolve("broker.conf")),
                        "conf/java.args", javaArgs(jars),
                        "conf/log4j2.xml", LocalImage.resource(PulsarBroker.class, "log4j2-broker.xml")),
                jars);
        tag = imageTag;
        return tag;
    }

    /** The broker's java command line. */
    private static String javaArgs(List<Path> jars) {
        List<String> flags = new ArrayList<>();
        flags.add("-Xmx256m");
        flags.addAll(PulsarBroker.PULSAR_JVM_FLAGS);
        flags.add("-Dlog4j2.configurationFile=" + CONF + "log4j2.xml");
        return LocalImage.javaArgs(
                LIB,
                jars,
                flags,
                MAIN_CLASS,
                "--config",
                CONF + "broker.conf",
                "--no-functions-worker",
                "--no-stream-storage",
                "--metadata-dir",
                "/var/lib/pulsar/metadata",
                "--bookkeeper-dir",
                "/var/lib/pulsar/bookkeeper");
    }

    private static synchronized Properties config() {
        if (config == null) {
            config = LocalImage.properties(Locations.dockerDir().resolve("pulsar-broker/broker.conf"));
        }
        return config;
    }
}
