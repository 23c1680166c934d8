package io.sluice.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.deploy.Dockerfile.Instruction;
import io.sluice.deploy.Dockerfile.Stage;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The Dockerfile agrees with the build (jar path), the command line (env names, ports) and the chart
 * (user), builds with the classic builder, and offers a target that only copies a jar built on the host.
 */
class DockerfileTest {

    private final Dockerfile dockerfile = Dockerfile.load();
    private final SluiceOptions options = SluiceOptions.load();

    @Test
    void buildsInOneStageAndRunsOnAJre17InAnother() {
        assertTrue(dockerfile.stages().size() >= 2, "multi-stage build expected");
        String runtime = dockerfile.baseImage(dockerfile.finalStage());
        assertTrue(
                runtime.contains("17") && runtime.contains("jre"),
                "runtime stage should be a Java 17 JRE, is " + runtime);
        Stage build = buildStage();
        String builder = dockerfile.baseImage(build);
        assertTrue(
                builder.contains("maven") && builder.contains("17"),
                "build stage should be Maven with JDK 17, is " + builder);
        String mvn = dockerfile.in(build, "RUN").stream()
                .map(Instruction::arguments)
                .filter(run -> run.contains("mvn "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the build stage runs no mvn"));
        for (String part : List.of("package", "-DskipTests", "-pl proxy-server", "-am")) {
            assertTrue(mvn.contains(part), "mvn command lacks " + part + ": " + mvn);
        }
    }

    @Test
    void copiesTheJarTheBuildProducesAndRunsIt() throws Exception {
        String jar = "proxy-server/target/" + proxyServerFinalName() + ".jar";
        assertEquals("proxy-server/target/sluice.jar", jar, "README and docs/REFERENCE.md name this jar");

        Stage build = buildStage();
        Instruction copy = jarCopy();
        List<String> words = Dockerfile.words(copy.arguments());
        List<String> paths = words.stream().filter(w -> !w.startsWith("--")).toList();
        assertEquals(2, paths.size(), "COPY --from=... <jar> <destination>: " + copy.arguments());
        String workdir = dockerfile.workdir(build);
        String source = paths.get(0).startsWith("/") ? paths.get(0) : workdir + "/" + paths.get(0);
        assertEquals(workdir.replaceAll("/$", "") + "/" + jar, source, "the jar copied out of the build stage");

        List<String> entrypoint = entrypoint();
        int dashJar = entrypoint.indexOf("-jar");
        assertTrue(dashJar > 0 && dashJar + 1 < entrypoint.size(), "ENTRYPOINT runs java -jar: " + entrypoint);
        assertEquals(paths.get(1), entrypoint.get(dashJar + 1), "ENTRYPOINT runs the copied jar");
    }

    @Test
    void baseImagesAreBuildArgumentsWithPublicDefaults() {
        for (Stage stage : dockerfile.stages()) {
            if (dockerfile.lineage(stage).size() > 1) {
                continue; // built on an earlier stage
            }
            Matcher arg = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}").matcher(stage.from());
            assertTrue(
                    arg.matches(),
                    "stage " + stage.name() + " names its base image by a build argument, not " + stage.from());
            String image = dockerfile.globalArgs().get(arg.group(1));
            assertTrue(
                    image != null && !image.isEmpty(),
                    "ARG " + arg.group(1) + " is declared before the first FROM with a default");
            assertFalse(image.startsWith("local/"), "the default is a public image: " + image);
        }
    }

    @Test
    void buildsWithTheClassicBuilder() {
        // Without BuildKit, a syntax directive and RUN flags (--mount, --network, --security) are refused.
        assertTrue(
                Repo.read("Dockerfile").lines().noneMatch(l -> l.matches("(?i)#\\s*syntax\\s*=.*")),
                "no # syntax= directive");
        for (Stage stage : dockerfile.stages()) {
            for (Instruction run : dockerfile.in(stage, "RUN")) {
                assertFalse(run.arguments().startsWith("--"), "RUN flags need BuildKit: " + run.arguments());
                assertFalse(run.arguments().contains("<<"), "heredocs need BuildKit: " + run.arguments());
            }
        }
    }

    @Test
    void prebuiltTargetCopiesTheHostBuiltJarIntoTheSameRuntime() throws Exception {
        Stage prebuilt = dockerfile.stage("prebuilt");
        Stage runtime = dockerfile.finalStage();
        // The classic builder builds every stage up to the target, so no Maven may come before it.
        assertTrue(prebuilt.index() < buildStage().index(), "the prebuilt stage comes before the Maven build");
        assertFalse(dockerfile.lineage(prebuilt).contains(buildStage()), "the prebuilt target never runs Maven");
        List<Stage> prebuiltParents = dockerfile.lineage(prebuilt);
        List<Stage> runtimeParents = dockerfile.lineage(runtime);
        assertEquals(
                runtimeParents.get(runtimeParents.size() - 2),
                prebuiltParents.get(prebuiltParents.size() - 2),
                "both targets are built on the same runtime stage");
        assertEquals(List.of(), dockerfile.in(prebuilt, "RUN"), "the prebuilt target only copies");
        assertEquals(List.of(), dockerfile.in(runtime, "RUN"), "the default target only copies");

        List<Instruction> copies = dockerfile.in(prebuilt, "COPY");
        assertEquals(1, copies.size(), "one COPY of the jar: " + copies);
        List<String> paths = Dockerfile.words(copies.get(0).arguments());
        assertEquals(2, paths.size(), "COPY <jar> <destination>: " + paths);
        String source = Dockerfile.substitute(paths.get(0), dockerfile.args(prebuilt));
        String jar = "proxy-server/target/" + proxyServerFinalName() + ".jar";
        assertEquals(jar, source, "by default the jar a host build makes");
        List<String> entrypoint = entrypoint();
        assertEquals(entrypoint.get(entrypoint.indexOf("-jar") + 1), paths.get(1), "ENTRYPOINT runs the copied jar");

        List<String> ignored =
                Repo.read(".dockerignore").lines().map(String::strip).toList();
        assertTrue(
                ignored.indexOf("!" + jar) > ignored.indexOf("**/target"),
                ".dockerignore leaves the other build output out but lets " + jar + " in");
    }

    @Test
    void entrypointIsExecFormSoJavaReceivesSigterm() {
        List<String> entrypoint = entrypoint();
        assertTrue(
                entrypoint.get(0).equals("java") || entrypoint.get(0).endsWith("/java"),
                "java must be PID 1, not a shell: " + entrypoint);
        assertTrue(
                dockerfile.inherited(dockerfile.finalStage(), "CMD").stream()
                        .allMatch(cmd -> cmd.arguments().startsWith("[")),
                "CMD, if any, must be exec form too");
    }

    @Test
    void exposesTheDefaultPulsarKafkaAndAdminPorts() {
        Set<Integer> exposed = exposedPorts();
        Set<Integer> defaults = Set.of(
                options.defaultPort("--listen"), options.defaultPort("--kafka-listen"), options.defaultPort("--admin"));
        assertEquals(Set.of(6650, 9092, 8080), defaults, "the defaults of docs/REFERENCE.md");
        assertEquals(defaults, exposed);

        Map<String, String> env = dockerfile.env(dockerfile.finalStage());
        for (String option : List.of("--listen", "--kafka-listen", "--admin")) {
            String value = env.get(SluiceOptions.envName(option));
            assertNotNull(
                    value,
                    "the image states its listen address " + SluiceOptions.envName(option) + ": " + env.keySet());
            assertEquals(options.defaultPort(option), SluiceOptions.portOf(value), option);
            assertTrue(
                    value.startsWith("0.0.0.0:"), "inside a container Sluice must listen on every interface: " + value);
        }
    }

    @Test
    void everySluiceEnvironmentVariableIsARealOption() {
        Set<String> valid = options.envNames();
        Map<String, String> env = dockerfile.env(dockerfile.finalStage());
        List<String> sluiceNames =
                env.keySet().stream().filter(n -> n.startsWith("SLUICE_")).toList();
        assertFalse(sluiceNames.isEmpty(), "the image configures Sluice by SLUICE_* variables");
        for (String name : sluiceNames) {
            assertTrue(valid.contains(name), name + " is not an option's variable; valid: " + valid);
        }
        assertTrue(sluiceNames.containsAll(List.of("SLUICE_LISTEN", "SLUICE_ADMIN", "SLUICE_LIMITS_FILE")));
    }

    @Test
    void passesNoSecretOnTheCommandLineOrInTheImage() {
        List<String> command = new ArrayList<>(entrypoint());
        dockerfile
                .inherited(dockerfile.finalStage(), "CMD")
                .forEach(cmd -> readJsonArray(cmd.arguments()).forEach(word -> command.add(word.asText())));
        for (String word : command) {
            assertFalse(
                    word.startsWith("--admin-token") && !word.startsWith("--admin-token-file"),
                    "the admin token on the command line: " + command);
        }
        Map<String, String> env = dockerfile.env(dockerfile.finalStage());
        assertFalse(env.containsKey("SLUICE_ADMIN_TOKEN"), "a token baked into the image");
        for (Instruction arg : dockerfile.inherited(dockerfile.finalStage(), "ARG")) {
            assertFalse(
                    arg.arguments().toUpperCase().matches(".*(TOKEN|PASSWORD|SECRET|KEY).*"),
                    "a secret as a build argument ends up in the image history: " + arg.arguments());
        }
    }

    @Test
    void limitsFileIsOnAVolume() {
        String limitsFile = dockerfile.env(dockerfile.finalStage()).get("SLUICE_LIMITS_FILE");
        assertEquals("/var/lib/sluice/limits.json", limitsFile);
        String directory = limitsFile.substring(0, limitsFile.lastIndexOf('/'));
        List<String> volumes = new ArrayList<>();
        for (Instruction volume : dockerfile.inherited(dockerfile.finalStage(), "VOLUME")) {
            String arguments = volume.arguments();
            if (arguments.startsWith("[")) {
                readJsonArray(arguments).forEach(v -> volumes.add(v.asText()));
            } else {
                volumes.addAll(Dockerfile.words(arguments));
            }
        }
        assertTrue(volumes.contains(directory), "VOLUME " + directory + " expected, have " + volumes);
        String runs = String.join(
                "\n",
                dockerfile.inherited(dockerfile.finalStage(), "RUN").stream()
                        .map(Instruction::arguments)
                        .toList());
        assertTrue(runs.contains("chown") && runs.contains(directory), "the volume directory must belong to the user");
    }

    @Test
    void runsAsAFixedNonRootUser() {
        String user = dockerfile.user(dockerfile.finalStage());
        assertNotNull(user, "the runtime stage must set USER");
        assertFalse(user.equals("root") || user.equals("0"), "USER must not be root: " + user);
        assertTrue(user.matches("\\d+"), "a numeric UID lets Kubernetes' runAsNonRoot verify it: " + user);
        assertEquals(ChartDefaults.runAsUser(), Integer.parseInt(user), "the chart's runAsUser and the image's USER");
    }

    @Test
    void dockerignoreKeepsBuildOutputOutButEveryModulePomIn() throws Exception {
        List<String> ignored = Repo.read(".dockerignore")
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList();
        assertTrue(ignored.contains(".git"), ".git excluded");
        assertTrue(ignored.contains("**/target") || ignored.contains("*/target"), "target directories excluded");
        // Maven reads every module of the root pom even with -pl, so none may be left out.
        for (String module : rootPomModules()) {
            for (String pattern : ignored) {
                String bare = pattern.replaceAll("^/|/$", "");
                assertFalse(
                        bare.equals(module) || bare.equals(module + "/**") || bare.equals(module + "/pom.xml"),
                        ".dockerignore excludes module " + module + " by " + pattern);
            }
        }
    }

    private Stage buildStage() {
        Instruction copy = jarCopy();
        String from = Dockerfile.words(copy.arguments()).stream()
                .filter(w -> w.startsWith("--from="))
                .findFirst()
                .orElseThrow()
                .substring("--from=".length());
        return dockerfile.stage(from);
    }

    private Instruction jarCopy() {
        List<Instruction> copies = dockerfile.in(dockerfile.finalStage(), "COPY").stream()
                .filter(c -> c.arguments().contains("--from=") && c.arguments().contains(".jar"))
                .toList();
        assertEquals(1, copies.size(), "one COPY --from of the jar into the runtime stage");
        return copies.get(0);
    }

    private List<String> entrypoint() {
        List<Instruction> entrypoints = dockerfile.inherited(dockerfile.finalStage(), "ENTRYPOINT");
        assertFalse(entrypoints.isEmpty(), "the runtime stage needs an ENTRYPOINT");
        String arguments = entrypoints.get(entrypoints.size() - 1).arguments();
        assertTrue(arguments.startsWith("["), "ENTRYPOINT must be exec form (a JSON array): " + arguments);
        List<String> words = new ArrayList<>();
        readJsonArray(arguments).forEach(n -> words.add(n.asText()));
        return words;
    }

    private static JsonNode readJsonArray(String text) {
        try {
            JsonNode node = Chart.JSON.readTree(text);
            if (!node.isArray()) {
                fail("not a JSON array: " + text);
            }
            return node;
        } catch (Exception e) {
            throw new AssertionError("not a JSON array: " + text, e);
        }
    }

    private Set<Integer> exposedPorts() {
        Set<Integer> ports = new TreeSet<>();
        for (Instruction expose : dockerfile.inherited(dockerfile.finalStage(), "EXPOSE")) {
            for (String port : Dockerfile.words(expose.arguments())) {
                ports.add(Integer.parseInt(port.replaceFirst("/tcp$", "")));
            }
        }
        return ports;
    }

    private static String proxyServerFinalName() throws Exception {
        Document pom = xml(Repo.read("proxy-server/pom.xml"));
        String finalName = XPathFactory.newInstance()
                .newXPath()
                .evaluate("/project/build/finalName", pom)
                .strip();
        assertFalse(finalName.isEmpty(), "proxy-server/pom.xml sets build/finalName");
        return finalName;
    }

    private static List<String> rootPomModules() throws Exception {
        Document pom = xml(Repo.read("pom.xml"));
        org.w3c.dom.NodeList modules = (org.w3c.dom.NodeList) XPathFactory.newInstance()
                .newXPath()
                .evaluate("/project/modules/module", pom, javax.xml.xpath.XPathConstants.NODESET);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < modules.getLength(); i++) {
            names.add(modules.item(i).getTextContent().strip());
        }
        assertTrue(names.contains("proxy-server"), "root pom modules: " + names);
        return names;
    }

    private static Document xml(String text) throws Exception {
        // Not namespace aware, so plain XPath names match the POM's elements.
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}
