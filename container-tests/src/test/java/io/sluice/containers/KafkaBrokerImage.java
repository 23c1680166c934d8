package io.sluice.containers;

import io.sluice.testkit.kafka.KafkaCluster;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

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

    private KafkaBrokerImage() {}

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
        String imageTag = "local/sluice-test-kafka:" + LocalImage.version(jars, SERVER_JAR);
        Path source = Locations.dockerDir().resolve("kafka-broker");
        LocalImage.ensure(
                imageTag,
                Locations.workDir().resolve("kafka-broker"),
                Map.of(
                        "Dockerfile", LocalImage.read(source.resolve("Dockerfile")),
                        "server.properties", LocalImage.read(source.resolve("server.properties")),
                        // kafka-storage.sh format and kafka-server-start.sh, as the testkit's KafkaNodeMain runs them.
                        "conf/format.args",
                                javaArgs(
                                        jars,
                                        List.of(),
                                        "kafka.tools.StorageTool",
                                        "format",
                                        "--config",
                                        CONF + "server.properties",
                                        "--cluster-id",
                                        CLUSTER_ID),
                        // The testkit's node flags: C1 only and a small heap, for a test broker on a busy machine.
                        "conf/java.args",
                                javaArgs(
                                        jars,
                                        List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                                        "kafka.Kafka",
                                        CONF + "server.properties"),
                        "conf/log4j2.xml", LocalImage.resource(KafkaCluster.class, "log4j2-kafka.xml")),
                jars);
        tag = imageTag;
        return tag;
    }

    private static String javaArgs(List<Path> jars, List<String> flags, String mainClass, String... mainArgs) {
        List<String> all = new ArrayList<>(flags);
        all.add("-Dlog4j2.configurationFile=" + CONF + "log4j2.xml");
        return LocalImage.javaArgs(LIB, jars, all, mainClass, mainArgs);
    }

    /** The PLAINTEXT listener {@code server.properties} advertises, e.g. {@code PLAINTEXT://kafka-broker:9092}. */
    private static URI advertised() {
        return URI.create(config().getProperty("advertised.listeners"));
    }

    private static synchronized Properties config() {
        if (config == null) {
            config = LocalImage.properties(Locations.dockerDir().resolve("kafka-broker/server.properties"));
        }
        return config;
    }
}
