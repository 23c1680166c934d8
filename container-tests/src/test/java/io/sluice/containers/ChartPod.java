package io.sluice.containers;

import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import org.testcontainers.containers.GenericContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Helm chart's pod settings (helm/sluice/values.yaml: securityContext, resources, volumes)
 * applied to a container of Sluice's image: UID 10001, a read-only root filesystem, every
 * capability dropped, no privilege escalation, a 512 MiB memory limit, {@code /tmp} as a tmpfs
 * and {@code /var/lib/sluice} on a volume of its own (the chart's two emptyDirs).
 */
final class ChartPod {

    static final String DATA_DIR = "/var/lib/sluice";
    static final long MEMORY_LIMIT_BYTES = 512L * 1024 * 1024;
    static final String USER = "10001:10001";

    private ChartPod() {}

    /** Applies the settings; {@code dataVolume} names the Docker volume mounted at {@link #DATA_DIR}. */
    static void apply(GenericContainer<?> container, String dataVolume) {
        container.withTmpFs(Map.of("/tmp", "rw,mode=1777,size=64m"));
        container.withCreateContainerCmdModifier(create -> {
            HostConfig host = create.getHostConfig();
            List<Bind> binds = new ArrayList<>(host.getBinds() == null ? List.of() : List.of(host.getBinds()));
            binds.add(new Bind(dataVolume, new Volume(DATA_DIR)));
            host.withBinds(binds)
                    .withReadonlyRootfs(true)
                    .withCapDrop(Capability.ALL)
                    .withSecurityOpts(List.of("no-new-privileges"))
                    .withMemory(MEMORY_LIMIT_BYTES);
            create.withUser(USER);
        });
    }

    /**
     * The shell command of the chart's init container (sluice-limits-seed), read from the chart's
     * template: it copies the limits ConfigMap, mounted at /etc/sluice, onto the data volume
     * unless a limits file is already there.
     */
    static String limitsSeedCommand() {
        Path template = Locations.repoRoot().resolve("helm/sluice/templates/_helpers.tpl");
        try {
            return Files.readAllLines(template).stream()
                    .map(String::strip)
                    .filter(line -> line.startsWith("- '") && line.contains("cp /etc/sluice/limits.json"))
                    .map(line -> line.substring(3, line.length() - 1))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no limits seed command in " + template));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
