package io.sluice.testkit.kafka;

import io.sluice.testkit.process.ChildProcess;
import io.sluice.testkit.process.FreePorts;
import io.sluice.testkit.process.JavaCommand;
import io.sluice.testkit.process.RuntimeClasspath;
import io.sluice.testkit.process.ScratchDirectories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kafka's own storage tool, in a child JVM as a node runs it, formats a controller's storage with ids
 * that begin with "-" and "_" when it is given them as {@link KafkaNodeMain} does; given as two
 * arguments, the one that begins with "-" is refused, which is the failure these ids used to cause.
 */
class StorageFormatTest {

    private final Path dir = ScratchDirectories.create("storage-format");

    @AfterEach
    void deleteDir() {
        ScratchDirectories.delete(dir);
    }

    @Test
    void idsBeginningWithDashOrUnderscoreFormat() throws Exception {
        for (String id : List.of("-AbCdEfGhIjKlMnOpQrStUv", "_AbCdEfGhIjKlMnOpQrStUv")) {
            Path node = dir.resolve("node" + id);
            Path config = controllerConfig(node);
            ChildProcess format = storageTool(
                    "format" + id, KafkaNodeMain.formatArguments(config.toString(), List.of(ClusterId.option(id))));
            assertEquals(0, format.exitValue(), format.logTail());
            String meta = Files.readString(node.resolve("data").resolve("meta.properties"));
            assertTrue(meta.contains("cluster.id=" + id + "\n"), meta);
        }
    }

    @Test
    void anIdBeginningWithADashAsItsOwnArgumentIsTakenForAnOption() throws Exception {
        Path config = controllerConfig(dir.resolve("node"));
        ChildProcess format = storageTool(
                "format-two-arguments",
                KafkaNodeMain.formatArguments(config.toString(), List.of("--cluster-id", "-AbCdEfGhIjKlMnOpQrStUv")));
        assertNotEquals(0, format.exitValue());
        assertTrue(format.logTail().contains("expected one argument"), format.logTail());
    }

    private Path controllerConfig(Path node) throws Exception {
        Files.createDirectories(node);
        int port = FreePorts.loopback(1)[0];
        Path config = node.resolve("server.properties");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "node.id=0",
                        "process.roles=controller",
                        "controller.quorum.voters=0@127.0.0.1:" + port,
                        "controller.listener.names=CONTROLLER",
                        "listeners=CONTROLLER://127.0.0.1:" + port,
                        "log.dirs=" + node.resolve("data"),
                        ""));
        return config;
    }

    private ChildProcess storageTool(String name, List<String> arguments) {
        ChildProcess tool = JavaCommand.mainClass("kafka.tools.StorageTool")
                .jvmOptions("-Xmx128m", "-XX:TieredStopAtLevel=1")
                .classpath(RuntimeClasspath.read(KafkaCluster.class, "kafka.classpath"))
                .args(arguments)
                .spec(name)
                .logFile(dir.resolve(name + ".log"))
                .directory(dir)
                .build()
                .start();
        assertTrue(tool.awaitExit(Duration.ofSeconds(60)), "the storage tool did not exit within 60 s");
        return tool;
    }
}
