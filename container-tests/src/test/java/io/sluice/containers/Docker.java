package io.sluice.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Docker engine, driven through the docker CLI as an operator drives it (builds, imports,
 * inspection), always with the classic builder: what the tests build must build without BuildKit.
 *
 * <p>{@link #connectTestcontainers()} points Testcontainers at the engine's own API version:
 * Testcontainers 2 asks for API 1.44 by default, which older engines refuse (Debian's 20.10 speaks
 * 1.41), while engines from 29 on refuse anything older than 1.44, so no fixed version suits both.
 */
final class Docker {

    private static final int OUTPUT_TAIL_LINES = 40;

    private static boolean connected;

    private Docker() {}

    /**
     * Runs {@code docker ARGS} and returns what it printed (stdout and stderr).
     *
     * @throws IllegalStateException if it exits non-zero or outlasts the timeout; the message ends
     *     with the tail of its output
     */
    static String run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add("docker");
        command.addAll(List.of(args));
        return command(timeout, Map.of(), command);
    }

    /** Runs any command, e.g. a script that calls docker, with extra environment variables; as {@link #run}. */
    static String command(Duration timeout, Map<String, String> env, List<String> command) {
        Result result = execute(timeout, env, command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + result.exitCode()
                    + "; last lines of its output:\n" + tail(result.output()));
        }
        return result.output();
    }

    /** Whether the engine has an image of that name. */
    static boolean hasImage(String image) {
        return execute(Duration.ofSeconds(30), Map.of(), List.of("docker", "image", "inspect", image))
                        .exitCode()
                == 0;
    }

    /** The value of a label of an image; null when the image or the label is missing. */
    static String label(String image, String key) {
        Result result = execute(
                Duration.ofSeconds(30),
                Map.of(),
                List.of("docker", "image", "inspect", "--format", "{{index .Config.Labels \"" + key + "\"}}", image));
        String value = result.output().strip();
        return result.exitCode() != 0 || value.isEmpty() || value.equals("<no value>") ? null : value;
    }

    /** The image's ID (its content hash), to tell whether an image was rebuilt. */
    static String imageId(String image) {
        return run(Duration.ofSeconds(30), "image", "inspect", "--format", "{{.Id}}", image)
                .strip();
    }

    /** Removes an image unless a container still uses it; best effort, for images a rebuild replaced. */
    static void removeImageIfUnused(String image) {
        execute(Duration.ofSeconds(60), Map.of(), List.of("docker", "image", "rm", image));
    }

    /**
     * Makes Testcontainers speak the engine's API version (unless the system property
     * {@code api.version} names one); call before the first container is created.
     *
     * @throws IllegalStateException if no engine answers the docker CLI
     */
    static synchronized void connectTestcontainers() {
        if (connected) {
            return;
        }
        String version = run(Duration.ofSeconds(30), "version", "--format", "{{.Server.APIVersion}}")
                .strip();
        if (System.getProperty("api.version") == null) {
            System.setProperty("api.version", version);
        }
        connected = true;
    }

    private record Result(int exitCode, String output) {}

    private static Result execute(Duration timeout, Map<String, String> env, List<String> command) {
        Path output = null;
        try {
            output = Files.createTempFile("sluice-docker-", ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
            builder.environment().put("DOCKER_BUILDKIT", "0");
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout
                        + "; last lines of its output:\n" + tail(Files.readString(output, StandardCharsets.UTF_8)));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException e) {
                    // A temp file left behind harms nothing.
                }
            }
        }
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - OUTPUT_TAIL_LINES), lines.size()));
    }
}
