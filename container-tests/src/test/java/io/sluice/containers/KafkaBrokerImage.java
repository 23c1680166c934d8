package io.sluice.containers;

import io.sluice.testkit.kafka.KafkaCluster;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
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
 * A single-node Kafka image (KRaft, broker and controller in one process) made of the very server
 * jars every other test runs as child JVMs (testkit-kafka-runtime's {@code kafka.classpath}
 * resource), on the local JRE base, so no Kafka image is pulled. {@code src/test/docker/kafka-broker}
 * holds its Dockerfile and {@code server.properties}; the jars, the java command lines (format at
 * build time, then the server) and the log configuration are added to the build context here. The
 * image is rebuilt only when one of those changed ({@link LocalImage}).
 */
final class KafkaBrokerImage {

    private static final Pattern SERVER_JAR = Pattern.compile("kafka_2\\.13-(\\d+\\.\\d+\\.\\d+)\\.jar");
    private static final String LIB = "/opt/kafka/lib/";
    private static final String CONF = "/opt/kafka/conf/";
    /** Any fixed id will do: each container starts from the storage formatted in the image. */
    private static final String CLUSTER_ID = "5QJjBQfRTS2sQQn8lb2o0w";

    private static Properties config;
    private static String tag;

    private KafkaBrokerImage() {
    }

    /** The broker's node id: Sluice serves it on its node port base + this. */
    static int nodeId() {
        return Integer.parseInt(config().getProperty("node.id"));
    }

    /** The name the broker advertises, which is its network alias: how Sluice's container reaches it. */
    static String host() {
        return advertised().getHost();
    }

    /** The broker's client (PLAINTEXT) port inside its container. */
    static int port() {
        return advertised().getPort();
    }

    /** Builds the image unless the engine has it from the same inputs, and returns its tag. */
    static synchronized String ensure() {
        if (tag != null) {
            return tag;
        }
        BaseImages.ensure();
        List<Path> jars = LocalImage.classpathJars(KafkaCluster.class, "kafka.classpath");
        String version = jars.stream().map(jar -> SERVER_JAR.matcher(jar.getFileName().toString()))
                .filter(Matcher::matches).map(m -> m.group(1)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no kafka_2.13 jar on the Kafka classpath"));
        String imageTag = "local/sluice-test-kafka:" + version;
        Path source = Locations.dockerDir().resolve("kafka-broker");
        String dockerfile = LocalImage.read(source.resolve("Dockerfile"));
        String serverProperties = LocalImage.read(source.resolve("server.properties"));
        // kafka-storage.sh format and kafka-server-start.sh, as the testkit's KafkaNodeMain runs them.
        String formatArgs = javaArgs(jars, List.of(), "kafka.tools.StorageTool",
                "format", "--config", CONF + "server.properties", "--cluster-id", CLUSTER_ID);
        // The testkit's node flags: C1 only and a small heap, for a test broker on a busy machine.
        String serverArgs = javaArgs(jars, List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                "kafka.Kafka", CONF + "server.properties");
        String log4j = LocalImage.resource(KafkaCluster.class, "log4j2-kafka.xml");
        LocalImage.ensure(imageTag, LocalImage.fingerprint(jars, dockerfile, serverProperties, formatArgs, serverArgs, log4j),
                Locations.workDir().resolve("kafka-broker"), context -> {
                    Files.writeString(context.resolve("Dockerfile"), dockerfile);
                    Files.writeString(context.resolve("server.properties"), serverProperties);
                    Path conf = Files.createDirectories(context.resolve("conf"));
                    Files.writeString(conf.resolve("format.args"), formatArgs);
                    Files.writeString(conf.resolve("java.args"), serverArgs);
                    Files.writeString(conf.resolve("log4j2.xml"), log4j);
                    LocalImage.linkJars(jars, context.resolve("lib"));
                }, Map.of("BASE_IMAGE", BaseImages.JRE));
        tag = imageTag;
        return tag;
    }

    /** A java command line, one argument per line (a java @argfile), with the jars in the build's order. */
    private static String javaArgs(List<Path> jars, List<String> flags, String mainClass, String... mainArgs) {
        List<String> args = new ArrayList<>(flags);
        args.add("-Dlog4j2.configurationFile=" + CONF + "log4j2.xml");
        args.add("-cp");
        args.add(jars.stream().map(jar -> LIB + jar.getFileName()).collect(Collectors.joining(":")));
        args.add(mainClass);
        args.addAll(List.of(mainArgs));
        return String.join("\n", args) + "\n";
    }

    /** The PLAINTEXT listener {@code server.properties} advertises, e.g. {@code PLAINTEXT://kafka-broker:9092}. */
    private static URI advertised() {
        return URI.create(config().getProperty("advertised.listeners"));
    }

    private static synchronized Properties config() {
        if (config == null) {
            Properties properties = new Properties();
            try {
                properties.load(new StringReader(LocalImage.read(Locations.dockerDir().resolve("kafka-broker/server.properties"))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            config = properties;
        }
        return config;
    }
}
