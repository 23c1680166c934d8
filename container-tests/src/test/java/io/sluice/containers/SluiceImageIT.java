package io.sluice.containers;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.model.Frame;
import org.apache.pulsar.client.api.Producer;
import org.apache.pulsar.client.api.PulsarClient;
import org.apache.pulsar.client.api.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.ExecConfig;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.utility.DockerImageName;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.sluice.containers.PulsarThroughSluiceContainerIT.limitPath;
import static io.sluice.containers.PulsarThroughSluiceContainerIT.topic;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sluice's image checked as an operator deploying it would: the user it runs as, the Helm chart's
 * hardened pod, the probes, shutdown on SIGTERM and the image's size.
 */
class SluiceImageIT {

    /** What Sluice adds to its runtime base: the shaded jar (about 25 MB) and a user. */
    private static final long MAX_OWN_LAYERS_BYTES = 48L * 1024 * 1024;
    /** The whole image on the local Debian JRE base (eclipse-temurin:17-jre is smaller still). */
    private static final long MAX_IMAGE_BYTES = 420L * 1000 * 1000;

    @TempDir
    Path dir;

    @Test
    void javaRunsAsPid1UnderTheImagesFixedNonRootUser() throws Exception {
        assertEquals(
                ChartPod.USER,
                DockerClientFactory.instance()
                        .client()
                        .inspectImageCmd(SluiceImage.ensure())
                        .exec()
                        .getConfig()
                        .getUser(),
                "the image's USER");
        try (SluiceContainer sluice = new SluiceContainer(SharedContainers.network(), "pulsar://no-broker-here:6650")) {
            sluice.start();
            ExecResult status = sluice.execInContainer("cat", "/proc/1/status");
            assertTrue(
                    status.getStdout()
                            .lines()
                            .anyMatch(line -> line.matches("Uid:\\s+10001\\s+10001\\s+10001\\s+10001")),
                    "PID 1 runs as UID 10001:\n" + status.getStdout());
            String cmdline = sluice.execInContainer("cat", "/proc/1/cmdline")
                    .getStdout()
                    .replace('\0', ' ')
                    .strip();
            assertEquals("java -jar /opt/sluice/sluice.jar", cmdline, "java itself is PID 1, so it receives SIGTERM");
        }
    }

    @Test
    void healthzAnswersWhileSluiceServesAndReadyzOnlyWhileItsBrokerAnswers() {
        PulsarBrokerContainer broker = SharedContainers.pulsarBroker();
        try (SluiceContainer fronting =
                        new SluiceContainer(SharedContainers.network(), broker.serviceUrlOnNetwork()).untilReady();
                SluiceContainer orphaned =
                        new SluiceContainer(SharedContainers.network(), "pulsar://no-broker-here:6650")) {
            fronting.start();
            orphaned.start();
            assertEquals(200, fronting.admin().get("/healthz").statusCode());
            assertEquals(200, fronting.admin().get("/readyz").statusCode());
            assertEquals(200, orphaned.admin().get("/healthz").statusCode(), "alive without a broker");
            HttpResponse<String> readyz = orphaned.admin().get("/readyz");
            assertEquals(503, readyz.statusCode(), "not ready without a broker: " + readyz.body());
        }
    }

    @Test
    void runsInTheChartsHardenedPodAndKeepsRestChangesOnItsDataVolume() throws Exception {
        String seeded = topic("seeded");
        String changed = topic("changed");
        // The chart's limits ConfigMap, mounted read-only at /etc/sluice; readable by UID 10001.
        Path configMap = Files.createDirectories(dir.resolve("configmap"));
        Files.writeString(
                configMap.resolve("limits.json"),
                "{\"topics\":{\"" + seeded + "\":{\"publish\":{\"messagesPerSecond\":100}}}}");
        for (Path path : new Path[] {dir, configMap}) {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Files.setPosixFilePermissions(configMap.resolve("limits.json"), PosixFilePermissions.fromString("rw-r--r--"));
        String volume = "sluice-test-data-" + System.nanoTime();
        try {
            seedLimits(volume, configMap);
            try (SluiceContainer sluice = hardened(volume)) {
                sluice.start();
                assertTrue(sluice.admin().get("/api/v1/limits").body().contains(seeded), "the seeded limit is loaded");

                ExecResult write = sluice.execInContainer(ExecConfig.builder()
                        .user("0")
                        .command(new String[] {"touch", "/opt/sluice/written"})
                        .build());
                assertNotEquals(0, write.getExitCode(), "the root filesystem is read-only, even for root");
                assertTrue(write.getStderr().contains("Read-only file system"), write.getStderr());

                long maxHeap = maxHeapBytes(sluice.execInContainer("java", "-XshowSettings:vm", "-version")
                        .getStderr());
                System.out.printf(
                        "container: max heap %d MiB under a %d MiB memory limit%n",
                        maxHeap >> 20, ChartPod.MEMORY_LIMIT_BYTES >> 20);
                assertTrue(
                        maxHeap <= ChartPod.MEMORY_LIMIT_BYTES * 3 / 4,
                        "the heap follows the memory limit: " + maxHeap);

                HttpResponse<String> put =
                        sluice.admin().put(limitPath(changed), "{\"publish\":{\"messagesPerSecond\":1000}}");
                assertEquals(200, put.statusCode(), put.body());
                String file = sluice.execInContainer("cat", ChartPod.DATA_DIR + "/limits.json")
                        .getStdout();
                assertTrue(file.contains(changed) && file.contains(seeded), "the limits file on the volume:\n" + file);

                // The proxy itself works with only /tmp and the volume writable (Netty, the JVM).
                try (PulsarClient client = PulsarClient.builder()
                                .serviceUrl(sluice.serviceUrl())
                                .build();
                        Producer<String> producer =
                                client.newProducer(Schema.STRING).topic(changed).create()) {
                    producer.send("through a hardened Sluice");
                }
                assertEquals(0, sluice.terminate(Duration.ofSeconds(30)), sluice.getLogs());
            }
            // A restarted pod: the init container runs again and must not clobber the live file.
            seedLimits(volume, configMap);
            try (SluiceContainer restarted = hardened(volume)) {
                restarted.start();
                String limits = restarted.admin().get("/api/v1/limits").body();
                assertTrue(
                        limits.contains(changed) && limits.contains(seeded), "limits survive the restart:\n" + limits);
            }
        } finally {
            DockerClientFactory.instance().client().removeVolumeCmd(volume).exec();
        }
    }

    @Test
    void withoutATokenFileTheImageRefusesToStartAndWithOneItServesTheApi() throws Exception {
        DockerClient docker = DockerClientFactory.instance().client();
        // Run by hand: Testcontainers removes a container that fails to start, and its logs with it.
        String open = docker.createContainerCmd(SluiceImage.ensure())
                .withEnv("SLUICE_UPSTREAM=pulsar://broker:6650")
                .exec()
                .getId();
        try {
            docker.startContainerCmd(open).exec();
            int exitCode = docker.waitContainerCmd(open)
                    .exec(new WaitContainerResultCallback())
                    .awaitStatusCode(60, TimeUnit.SECONDS);
            StringBuilder logs = new StringBuilder();
            docker.logContainerCmd(open)
                    .withStdOut(true)
                    .withStdErr(true)
                    .exec(new ResultCallback.Adapter<Frame>() {
                        @Override
                        public void onNext(Frame frame) {
                            logs.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                        }
                    })
                    .awaitCompletion(30, TimeUnit.SECONDS);
            assertEquals(2, exitCode, logs.toString());
            assertTrue(
                    logs.toString()
                            .contains("sluice: the admin API on 0.0.0.0:8080 would let anyone who reaches it change"
                                    + " every limit"),
                    logs.toString());
        } finally {
            docker.removeContainerCmd(open).withForce(true).exec();
        }
        try (SluiceContainer closed = new SluiceContainer(
                        SharedContainers.network(),
                        SharedContainers.pulsarBroker().serviceUrlOnNetwork())
                .untilReady()) {
            closed.start();
            assertEquals(200, closed.admin().get("/api/v1/limits").statusCode());
        }
    }

    @Test
    void sigtermDrainsHeldSendsToTheBrokerAndExitsZero() throws Exception {
        String topic = topic("drain");
        int drainTimeoutSeconds = 20;
        int total = 200;
        PulsarBrokerContainer broker = SharedContainers.pulsarBroker();
        try (SluiceContainer sluice = new SluiceContainer(SharedContainers.network(), broker.serviceUrlOnNetwork())
                .untilReady()
                .withEnv("SLUICE_DRAIN_TIMEOUT", Integer.toString(drainTimeoutSeconds))) {
            sluice.start();
            HttpResponse<String> put = sluice.admin()
                    .put(limitPath(topic), "{\"publish\":{\"messagesPerSecond\":50,\"burstSeconds\":0.1}}");
            assertEquals(200, put.statusCode(), put.body());
            AtomicInteger acknowledged = new AtomicInteger();
            try (PulsarClient client =
                    PulsarClient.builder().serviceUrl(sluice.serviceUrl()).build()) {
                Producer<String> producer = client.newProducer(Schema.STRING)
                        .topic(topic)
                        .enableBatching(false)
                        .sendTimeout(0, TimeUnit.SECONDS)
                        .create();
                for (int i = 0; i < total; i++) {
                    producer.sendAsync("m-" + i).thenRun(acknowledged::incrementAndGet);
                }
                // SIGTERM once sends flow: at 50 msg/s, most of them are still held by Sluice.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (acknowledged.get() < 10 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                int beforeSigterm = acknowledged.get();
                assertTrue(
                        beforeSigterm >= 10 && beforeSigterm < total / 2,
                        "sends flow and Sluice holds a backlog at 50 msg/s: " + beforeSigterm + " acknowledged");

                long start = System.nanoTime();
                long exitCode = sluice.terminate(Duration.ofSeconds(drainTimeoutSeconds + 15));
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(
                        "container drain: %d of %d acknowledged at SIGTERM, %d when Sluice exited %.1f s later%n",
                        beforeSigterm, total, acknowledged.get(), seconds);
                assertEquals(0, exitCode, "exit code after SIGTERM; log:\n" + sluice.getLogs());
                assertEquals(total, acknowledged.get(), "every held send reached the broker before Sluice exited");
                assertTrue(seconds < drainTimeoutSeconds, "Sluice exits once drained, before the drain timeout");
            }
        }
    }

    @Test
    void sluiceAddsLittleMoreThanItsJarToTheRuntimeBase() {
        long image = imageSize(SluiceImage.ensure());
        long base = imageSize(BaseImages.JRE);
        System.out.printf(
                "container: %s is %.1f MB, of which %.1f MB on top of %s%n",
                SluiceImage.TAG, image / 1e6, (image - base) / 1e6, BaseImages.JRE);
        assertTrue(image - base <= MAX_OWN_LAYERS_BYTES, "Sluice's own layers: " + (image - base) + " bytes");
        assertTrue(image <= MAX_IMAGE_BYTES, "the image: " + image + " bytes");
    }

    /** The chart's init container (sluice-limits-seed) on the data volume, run to completion. */
    private static void seedLimits(String volume, Path configMap) {
        GenericContainer<?> seed = new GenericContainer<>(DockerImageName.parse(SluiceImage.ensure()));
        ChartPod.apply(seed, volume);
        seed.withFileSystemBind(configMap.toString(), "/etc/sluice", BindMode.READ_ONLY)
                .withCreateContainerCmdModifier(create -> create.withEntrypoint("/bin/sh"))
                .withCommand("-c", ChartPod.limitsSeedCommand())
                .withStartupCheckStrategy(new OneShotStartupCheckStrategy().withTimeout(Duration.ofSeconds(60)));
        try (seed) {
            seed.start();
        }
    }

    private static SluiceContainer hardened(String volume) {
        SluiceContainer sluice = new SluiceContainer(
                        SharedContainers.network(),
                        SharedContainers.pulsarBroker().serviceUrlOnNetwork())
                .untilReady();
        ChartPod.apply(sluice, volume);
        return sluice;
    }

    private static long imageSize(String image) {
        return DockerClientFactory.instance()
                .client()
                .inspectImageCmd(image)
                .exec()
                .getSize();
    }

    /** Parses {@code Max. Heap Size (Estimated): 371.00M} from {@code java -XshowSettings:vm -version}. */
    private static long maxHeapBytes(String settings) {
        Matcher m = Pattern.compile("Max\\. Heap Size \\(Estimated\\): ([\\d.]+)([KMG])")
                .matcher(settings);
        assertTrue(m.find(), "no heap size in:\n" + settings);
        int shift = switch (m.group(2)) {
            case "K" -> 10;
            case "M" -> 20;
            default -> 30;
        };
        return (long) (Double.parseDouble(m.group(1)) * (1L << shift));
    }
}
