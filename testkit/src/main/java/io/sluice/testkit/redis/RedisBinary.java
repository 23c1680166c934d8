package io.sluice.testkit.redis;

import io.sluice.testkit.process.RuntimeClasspath;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The statically linked {@code redis-server} that org.signal:embedded-redis ships for each OS and
 * CPU, extracted once per machine to {@code ${java.io.tmpdir}/sluice-testkit-bin}. Only the
 * binary is used, never the library's Java wrapper: the testkit runs it as a child of its own.
 */
final class RedisBinary {

    /** The version of redis-server in embedded-redis 0.9.1. */
    static final String VERSION = "7.0.15";

    private RedisBinary() {}

    /** The path of an executable redis-server for this machine, extracting it on first use. */
    static synchronized Path path() {
        String entryName = "redis-server-" + VERSION + "-" + platform();
        Path target = Path.of(System.getProperty("java.io.tmpdir"), "sluice-testkit-bin", entryName);
        try (ZipFile jar = new ZipFile(RuntimeClasspath.read(RedisServer.class, "redis.classpath"))) {
            ZipEntry entry = jar.getEntry(entryName);
            if (entry == null) {
                throw new IllegalStateException("embedded-redis has no " + entryName);
            }
            if (Files.isExecutable(target) && Files.size(target) == entry.getSize()) {
                return target;
            }
            Files.createDirectories(target.getParent());
            // Another JVM may be extracting the same file: write aside, then rename over.
            Path partial = Files.createTempFile(target.getParent(), entryName, ".partial");
            try (InputStream in = jar.getInputStream(entry)) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + entryName + " to " + target, e);
        }
    }

    /** The suffix of the binary for this OS and CPU, as embedded-redis names them. */
    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String cpu = switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            case "x86", "i386", "i686" -> "386";
            default -> throw new IllegalStateException("embedded-redis has no redis-server for " + arch);
        };
        if (os.contains("linux")) {
            return "linux-" + cpu;
        }
        if (os.contains("mac")) {
            return "darwin-" + cpu;
        }
        throw new IllegalStateException("embedded-redis has no redis-server for " + os);
    }
}
