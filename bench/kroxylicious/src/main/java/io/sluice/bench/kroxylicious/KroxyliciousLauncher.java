package io.sluice.bench.kroxylicious;

import io.kroxylicious.proxy.KafkaProxy;
import io.kroxylicious.proxy.config.ConfigParser;
import io.kroxylicious.proxy.config.Configuration;
import io.kroxylicious.proxy.internal.config.Features;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts Kroxylicious's proxy ({@code io.kroxylicious.proxy.KafkaProxy} of kroxylicious-runtime) from
 * a YAML configuration file, as Kroxylicious's own launcher would, and serves until the JVM is
 * stopped. Runs only in a child JVM on the classpath of {@link #CLASSPATH_RESOURCE}; no class of the
 * bench loads it.
 *
 * <p>Usage: {@code KroxyliciousLauncher CONFIG_FILE}. Prints {@link #READY} once every port listens.
 */
public final class KroxyliciousLauncher {

    /** The classpath file the build writes next to this class: the runtime's jars. */
    public static final String CLASSPATH_RESOURCE = "kroxylicious.classpath";

    /** The line printed once the proxy's ports listen. */
    public static final String READY = "Kroxylicious started";

    private KroxyliciousLauncher() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: KroxyliciousLauncher CONFIG_FILE");
        }
        ConfigParser parser = new ConfigParser();
        Configuration configuration = parser.parseConfiguration(Files.readString(Path.of(args[0])));
        KafkaProxy proxy = new KafkaProxy(parser, configuration, Features.defaultFeatures());
        // SIGTERM runs the hooks: the proxy closes its listeners and upstream connections.
        Runtime.getRuntime().addShutdownHook(new Thread(proxy::shutdown, "kroxylicious-shutdown"));
        proxy.startup();
        System.out.println(READY);
        proxy.block();
    }
}
