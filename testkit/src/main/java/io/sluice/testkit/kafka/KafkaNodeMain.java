package io.sluice.testkit.kafka;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/**
 * The main class of one Kafka node's child JVM: formats the node's storage as
 * {@code kafka-storage.sh format --ignore-formatted} does, so only on its first start, then runs
 * the node as {@code kafka-server-start.sh} does. Both through Kafka's own entry points
 * ({@code kafka.tools.StorageTool}, {@code kafka.Kafka}), called reflectively because the testkit
 * does not compile against the server: its jars are only on the child's classpath.
 *
 * <p>Arguments: {@code SERVER_PROPERTIES [FORMAT_OPTION...]}, e.g.
 * {@code server.properties --cluster-id=ID --add-scram SCRAM-SHA-256=[name=alice,password=secret]}.
 */
public final class KafkaNodeMain {

    private KafkaNodeMain() {}

    public static void main(String[] args) throws Throwable {
        String config = args[0];
        List<String> format = formatArguments(config, List.of(args).subList(1, args.length));
        try {
            int code = (int) Class.forName("kafka.tools.StorageTool")
                    .getMethod("execute", String[].class, PrintStream.class)
                    .invoke(null, format.toArray(String[]::new), System.out);
            if (code != 0) {
                System.out.println("kafka-storage format exited with code " + code);
                System.exit(code);
            }
            Class.forName("kafka.Kafka").getMethod("main", String[].class).invoke(null, (Object) new String[] {config});
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** The storage tool's arguments for formatting the node of {@code config} once, with {@code options}. */
    static List<String> formatArguments(String config, List<String> options) {
        List<String> format = new ArrayList<>(List.of("format", "--config", config, "--ignore-formatted"));
        format.addAll(options);
        return format;
    }
}
