package io.sluice.server.it.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * librdkafka as the ITs drive it: Debian's {@code python3-confluent-kafka} running the test resource
 * {@code librdkafka_client.py} (produce, consume, rejoin a group), and {@code kcat}. Where they are
 * missing a test is skipped, unless {@code SLUICE_REQUIRE_LIBRDKAFKA} is set (as {@code .ci/run}
 * sets it), which makes their absence a failure.
 */
final class LibrdkafkaScript {

    /** Debian's interpreter: a pyenv {@code python3} earlier on PATH has no confluent_kafka. */
    static final String PYTHON = "/usr/bin/python3";

    static final String KCAT = "/usr/bin/kcat";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path script;
    private final String bootstrap;
    private final List<String> settings;

    private LibrdkafkaScript(Path script, String bootstrap, List<String> settings) {
        this.script = script;
        this.bootstrap = bootstrap;
        this.settings = List.copyOf(settings);
    }

    /**
     * The script for clients of {@code bootstrap} with librdkafka {@code settings} (KEY=VALUE);
     * skips the test (or fails it, see above) when the clients are not installed.
     */
    static LibrdkafkaScript forClientsOf(String bootstrap, List<String> settings) throws Exception {
        boolean installed = Files.isExecutable(Path.of(KCAT))
                && new ProcessBuilder(PYTHON, "-c", "import confluent_kafka")
                                .redirectErrorStream(true)
                                .start()
                                .waitFor()
                        == 0;
        if (!installed && System.getenv("SLUICE_REQUIRE_LIBRDKAFKA") != null) {
            fail("python3-confluent-kafka or kcat is missing: apt-get install python3-confluent-kafka kcat");
        }
        assumeTrue(installed, "python3-confluent-kafka and kcat are not installed");
        Path script = Files.createTempFile("librdkafka_client", ".py");
        try (InputStream source = LibrdkafkaScript.class.getResourceAsStream("librdkafka_client.py")) {
            Files.copy(source, script, StandardCopyOption.REPLACE_EXISTING);
        }
        return new LibrdkafkaScript(script, bootstrap, settings);
    }

    /** The librdkafka settings every client gets, as {@code -X} takes them. */
    List<String> settings() {
        return settings;
    }

    /**
     * Runs the script: {@code action} on {@code topic}, with librdkafka settings (KEY=VALUE) or
     * options ({@code --group NAME}) after; its JSON result.
     */
    JsonNode run(String action, String topic, int count, String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                PYTHON,
                script.toString(),
                action,
                "--bootstrap",
                bootstrap,
                "--topic",
                topic,
                "--count",
                Integer.toString(count)));
        for (String setting : settings) {
            command.add("--config");
            command.add(setting);
        }
        for (int i = 0; i < extra.length; i++) {
            if (extra[i].startsWith("--")) {
                command.add(extra[i]);
                command.add(extra[++i]);
            } else {
                command.add("--config");
                command.add(extra[i]);
            }
        }
        return JSON.readTree(run(command));
    }

    /** Runs {@code command}, failing unless it exits 0 within two minutes; its standard output. */
    static String run(List<String> command) throws IOException, InterruptedException {
        Path err = Files.createTempFile("librdkafka", ".err");
        Process process =
                new ProcessBuilder(command).redirectError(err.toFile()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command.get(0) + " still running after 2 minutes: " + Files.readString(err));
        }
        assertEquals(0, process.exitValue(), command.get(0) + " failed: " + Files.readString(err) + out);
        return out;
    }
}
