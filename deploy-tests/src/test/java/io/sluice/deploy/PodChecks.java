package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What every pod spec with Sluice in it must satisfy, whichever the mode: the Deployment's in
 * proxy mode, the StatefulSet patch's in sidecar mode.
 */
final class PodChecks {

    static final String LIMITS_FILE = "/var/lib/sluice/limits.json";
    static final String LIMITS_DIR = "/var/lib/sluice";
    static final String STORE_PASSWORD = "SLUICE_CLUSTER_STORE_PASSWORD";

    /** What a rendering was asked for. */
    record Expected(
            int listenPort,
            int adminPort,
            String upstream,
            String lookupMode,
            int drainSeconds,
            String secretName,
            String secretKey,
            String limitsConfigMap,
            String image) {}

    private PodChecks() {}

    static void assertSluicePod(JsonNode podSpec, Expected expected) {
        JsonNode sluice = container(podSpec, "containers", "sluice");
        assertEquals(expected.image(), sluice.path("image").asText(), "image");

        // Ports, and the listen addresses that must agree with them.
        assertEquals(expected.listenPort(), port(sluice, "sluice-pulsar"), "Pulsar container port");
        assertEquals(expected.adminPort(), port(sluice, "sluice-admin"), "admin container port");
        Map<String, JsonNode> env = env(sluice);
        assertEquals("0.0.0.0:" + expected.listenPort(), value(env, "SLUICE_LISTEN"));
        assertEquals("0.0.0.0:" + expected.adminPort(), value(env, "SLUICE_ADMIN"));
        assertEquals(expected.upstream(), value(env, "SLUICE_UPSTREAM"));
        assertEquals(expected.lookupMode(), value(env, "SLUICE_LOOKUP_MODE"));
        assertEquals(LIMITS_FILE, value(env, "SLUICE_LIMITS_FILE"));
        assertEquals(String.valueOf(expected.drainSeconds()), value(env, "SLUICE_DRAIN_TIMEOUT"));
        // Stalled peers are cut off (chart defaults, the same as the CLI's).
        assertEquals("30", value(env, "SLUICE_HANDSHAKE_TIMEOUT"));
        assertEquals("30", value(env, "SLUICE_ADMIN_IDLE_TIMEOUT"));
        // The admin token is a file of a mounted Secret: Sluice re-reads it when the Secret changes.
        String tokenFile = value(env, "SLUICE_ADMIN_TOKEN_FILE");
        JsonNode tokenVolume = secretVolumeOf(podSpec, sluice, tokenFile);
        assertEquals(
                expected.secretName(),
                tokenVolume.path("secret").path("secretName").asText());
        assertEquals(
                expected.secretKey(),
                tokenVolume.path("secret").path("items").path(0).path("key").asText());
        assertEquals(
                tokenFile.substring(tokenFile.lastIndexOf('/') + 1),
                tokenVolume.path("secret").path("items").path(0).path("path").asText());
        assertNoSecretInEnvironmentOrCommandLine(podSpec);

        // Probes on the admin port.
        assertProbe(sluice.path("livenessProbe"), "/healthz", expected.adminPort());
        assertProbe(sluice.path("readinessProbe"), "/readyz", expected.adminPort());

        // Shutdown: Kubernetes must not SIGKILL Sluice before its drain ends.
        int grace = podSpec.path("terminationGracePeriodSeconds").asInt(-1);
        assertTrue(
                grace > expected.drainSeconds(),
                "terminationGracePeriodSeconds " + grace + " must exceed the drain timeout " + expected.drainSeconds());

        assertNoUnknownSluiceVariables(podSpec);
        assertLocked(sluice);
        assertResources(sluice);

        // Volumes: read-only root, so the limits directory and /tmp are volumes; the limits file
        // is seeded from the ConfigMap into the writable directory.
        assertEquals(LIMITS_DIR, mountPath(sluice, "sluice-data"));
        assertEquals("/tmp", mountPath(sluice, "sluice-tmp"));
        assertTrue(volume(podSpec, "sluice-tmp").has("emptyDir"), "/tmp is an emptyDir");
        assertEquals(
                expected.limitsConfigMap(),
                volume(podSpec, "sluice-limits").path("configMap").path("name").asText());
        assertFalse(
                mounts(sluice).containsKey("sluice-limits"),
                "Sluice itself must use the writable copy, not the read-only ConfigMap");

        JsonNode seed = container(podSpec, "initContainers", "sluice-limits-seed");
        assertEquals(expected.image(), seed.path("image").asText(), "the seed runs the Sluice image (it has a shell)");
        assertEquals(LIMITS_DIR, mountPath(seed, "sluice-data"));
        String configDir = mountPath(seed, "sluice-limits");
        assertTrue(mounts(seed).get("sluice-limits").path("readOnly").asBoolean(), "ConfigMap mounted read-only");
        String command = String.join(" ", texts(seed.path("command")));
        assertTrue(
                command.contains("cp " + configDir + "/limits.json " + LIMITS_FILE),
                "the seed copies the ConfigMap's limits.json to the limits file: " + command);
        assertTrue(
                command.contains("[ -e " + LIMITS_FILE + " ] ||"),
                "the seed keeps a limits file that exists already: " + command);
        assertLocked(seed);

        // Every mount names a volume of the pod.
        Set<String> volumeNames = new HashSet<>();
        podSpec.path("volumes").forEach(v -> volumeNames.add(v.path("name").asText()));
        for (JsonNode c : List.of(sluice, seed)) {
            for (String mounted : mounts(c).keySet()) {
                assertTrue(
                        volumeNames.contains(mounted), "mount " + mounted + " has no volume; volumes " + volumeNames);
            }
        }
    }

    /**
     * No container gets a secret through its environment or command line, where {@code ps}, a
     * crash dump or {@code kubectl describe} would show it: no {@code secretKeyRef} variable, no
     * {@code SLUICE_ADMIN_TOKEN}, no {@code --admin-token} argument. The one exception is the
     * cluster store's password, which Sluice takes only from its variable (docs/REFERENCE.md,
     * {@code --cluster-store-password}): from a Secret, never as a value.
     */
    static void assertNoSecretInEnvironmentOrCommandLine(JsonNode podSpec) {
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode c : podSpec.path(list)) {
                String name = c.path("name").asText();
                c.path("env").forEach(e -> {
                    assertFalse(
                            e.path("valueFrom").has("secretKeyRef")
                                    && !e.path("name").asText().equals(STORE_PASSWORD),
                            name + ": " + e.path("name").asText()
                                    + " takes a Secret into the environment; mount it as a file");
                    assertFalse(
                            e.path("name").asText().equals("SLUICE_ADMIN_TOKEN"), name + ": the token as a variable");
                    assertFalse(
                            e.path("name").asText().equals(STORE_PASSWORD) && e.has("value"),
                            name + ": the store password as a value in the pod spec");
                });
                for (String field : List.of("command", "args")) {
                    for (String word : texts(c.path(field))) {
                        assertFalse(
                                word.contains("--admin-token") && !word.contains("--admin-token-file"),
                                name + ": the token on the command line: " + word);
                    }
                }
            }
        }
    }

    /**
     * The Secret volume a file of {@code container} lives in, checking it is mounted read-only and
     * whole: a subPath mount would never see the Secret's later versions.
     */
    static JsonNode secretVolumeOf(JsonNode podSpec, JsonNode container, String file) {
        for (Map.Entry<String, JsonNode> mount : mounts(container).entrySet()) {
            String dir = mount.getValue().path("mountPath").asText();
            if (file.startsWith(dir.endsWith("/") ? dir : dir + "/")) {
                assertTrue(mount.getValue().path("readOnly").asBoolean(false), file + ": mounted read-only");
                assertFalse(mount.getValue().has("subPath"), file + ": a subPath mount never sees a rotated Secret");
                JsonNode volume = volume(podSpec, mount.getKey());
                assertTrue(volume.has("secret"), file + " comes from a Secret volume: " + volume);
                return volume;
            }
        }
        throw new AssertionError("no mount holds " + file + " in " + container.path("volumeMounts"));
    }

    /** Non-root, no privilege escalation, no capabilities, read-only root filesystem. */
    static void assertLocked(JsonNode container) {
        String name = container.path("name").asText();
        JsonNode security = container.path("securityContext");
        assertTrue(security.path("runAsNonRoot").asBoolean(false), name + ": runAsNonRoot");
        assertEquals(ChartDefaults.runAsUser(), security.path("runAsUser").asInt(-1), name + ": runAsUser");
        assertTrue(security.path("runAsUser").asInt(0) > 0, name + ": runAsUser not root");
        assertFalse(
                security.path("allowPrivilegeEscalation").asBoolean(true), name + ": allowPrivilegeEscalation false");
        assertTrue(security.path("readOnlyRootFilesystem").asBoolean(false), name + ": readOnlyRootFilesystem");
        assertTrue(texts(security.path("capabilities").path("drop")).contains("ALL"), name + ": capabilities drop ALL");
    }

    static void assertResources(JsonNode container) {
        JsonNode resources = container.path("resources");
        assertTrue(
                resources.path("requests").has("memory")
                        && resources.path("requests").has("cpu"),
                "resource requests: " + resources);
        assertTrue(resources.path("limits").has("memory"), "memory limit: " + resources);
    }

    /** Every SLUICE_* variable of every container is the variable of a real option, set once. */
    static void assertNoUnknownSluiceVariables(JsonNode podSpec) {
        Set<String> valid = SluiceOptions.load().envNames();
        for (String list : List.of("initContainers", "containers")) {
            for (JsonNode c : podSpec.path(list)) {
                List<String> names = new ArrayList<>();
                c.path("env").forEach(e -> names.add(e.path("name").asText()));
                assertEquals(
                        names.size(), new HashSet<>(names).size(), "duplicate env in " + c.path("name") + ": " + names);
                for (String name : names) {
                    if (name.startsWith("SLUICE_") && !valid.contains(name)) {
                        fail(name + " in container " + c.path("name").asText() + " is no option's variable; valid: "
                                + valid);
                    }
                }
            }
        }
    }

    static void assertProbe(JsonNode probe, String path, int port) {
        JsonNode http = probe.path("httpGet");
        assertEquals(path, http.path("path").asText(), "probe path");
        assertEquals(port, http.path("port").asInt(-1), "probe port for " + path);
        assertTrue(probe.path("periodSeconds").asInt(0) > 0, "probe period for " + path);
    }

    static JsonNode container(JsonNode podSpec, String list, String name) {
        for (JsonNode c : podSpec.path(list)) {
            if (name.equals(c.path("name").asText())) {
                return c;
            }
        }
        throw new AssertionError("no " + list + " entry named " + name + " in " + podSpec.path(list));
    }

    static Map<String, JsonNode> env(JsonNode container) {
        Map<String, JsonNode> env = new LinkedHashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
        return env;
    }

    static String value(Map<String, JsonNode> env, String name) {
        JsonNode entry = env.get(name);
        if (entry == null) {
            throw new AssertionError("env " + name + " not set; have " + env.keySet());
        }
        return entry.path("value").asText();
    }

    /** The variable {@code envVar} comes from {@code secret}'s {@code key}, never as a value. */
    static void assertFromSecret(JsonNode envVar, String secret, String key) {
        assertFalse(envVar == null || envVar.has("value"), "from a Secret, never inline: " + envVar);
        JsonNode ref = envVar.path("valueFrom").path("secretKeyRef");
        assertEquals(secret, ref.path("name").asText(), envVar.toString());
        assertEquals(key, ref.path("key").asText(), envVar.toString());
    }

    static int port(JsonNode container, String name) {
        for (JsonNode p : container.path("ports")) {
            if (name.equals(p.path("name").asText())) {
                assertEquals("TCP", p.path("protocol").asText("TCP"));
                return p.path("containerPort").asInt();
            }
        }
        throw new AssertionError("no port " + name + " in " + container.path("ports"));
    }

    static Map<String, JsonNode> mounts(JsonNode container) {
        Map<String, JsonNode> mounts = new LinkedHashMap<>();
        container.path("volumeMounts").forEach(m -> mounts.put(m.path("name").asText(), m));
        return mounts;
    }

    static String mountPath(JsonNode container, String volume) {
        JsonNode mount = mounts(container).get(volume);
        if (mount == null) {
            throw new AssertionError(container.path("name").asText() + " does not mount " + volume);
        }
        return mount.path("mountPath").asText();
    }

    static JsonNode volume(JsonNode podSpec, String name) {
        for (JsonNode v : podSpec.path("volumes")) {
            if (name.equals(v.path("name").asText())) {
                return v;
            }
        }
        throw new AssertionError("no volume " + name + " in " + podSpec.path("volumes"));
    }

    static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(n -> texts.add(n.asText()));
        return texts;
    }
}
