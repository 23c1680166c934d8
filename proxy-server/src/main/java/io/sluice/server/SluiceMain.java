package io.sluice.server;

import io.sluice.cli.AdminCli;
import io.sluice.server.logging.SluiceLogging;
import io.sluice.settings.InvalidSettingsException;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import sun.misc.Signal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;

/**
 * Entry point of {@code sluice.jar}: parses options, starts Sluice, stops it on SIGTERM or Ctrl-C;
 * or runs one admin command ({@code sluice limits|throttled|topics|admission ...}, see {@link AdminCli}).
 */
public final class SluiceMain {

    /** Exit code for bad options or an unusable configuration, as picocli uses for usage errors. */
    static final int EXIT_USAGE = 2;

    private static final String TRY_REFLECTION_SET_ACCESSIBLE = "io.netty.tryReflectionSetAccessible";
    private static final String LEAK_DETECTION_LEVEL = "io.netty.leakDetection.level";
    private static final String LEGACY_LEAK_DETECTION_LEVEL = "io.netty.leakDetectionLevel";

    private SluiceMain() {}

    public static void main(String[] args) {
        // Before any Netty class loads: with the jar's Add-Opens, Netty allocates direct memory
        // without zeroing it or a Cleaner per buffer. An explicit -D setting wins.
        if (System.getProperty(TRY_REFLECTION_SET_ACCESSIBLE) == null) {
            System.setProperty(TRY_REFLECTION_SET_ACCESSIBLE, "true");
        }
        // Netty's default samples buffers for leak records, which took 1.2 % of the CPU at 1,000
        // messages in flight (docs/BENCHMARKS.md); off unless asked for, as brokers run Netty.
        if (System.getProperty(LEAK_DETECTION_LEVEL) == null
                && System.getProperty(LEGACY_LEAK_DETECTION_LEVEL) == null) {
            System.setProperty(LEAK_DETECTION_LEVEL, "disabled");
        }
        if (AdminCli.handles(args)) {
            System.exit(AdminCli.run(args));
            return;
        }
        SluiceConfig config;
        try {
            config = parse(args, System.getenv(), System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("sluice: " + e.getMessage());
            System.exit(EXIT_USAGE);
            return;
        }
        if (config == null) {
            return;
        }
        SluiceLogging.apply(config.logging());
        run(config);
    }

    /**
     * Merges flags, environment and config file into a configuration, with the options of every
     * front end on the class path; returns null when the arguments only asked for help or the
     * version (printed to {@code out}).
     *
     * @throws IllegalArgumentException with a one-line message for any bad option or file
     */
    public static SluiceConfig parse(String[] args, Map<String, String> env, PrintStream out) {
        SluiceCommand command = new SluiceCommand();
        CommandLine cli = new CommandLine(command);
        Set<String> yamlKeys = new TreeSet<>();
        for (OptionSpec option : cli.getCommandSpec().options()) {
            if (option.longestName().startsWith("--")
                    && !option.usageHelp()
                    && !option.versionHelp()
                    && !option.longestName().equals("--config")) {
                yamlKeys.add(ConfigSources.yamlKey(option.longestName()));
            }
        }
        String configPath = configPath(args, env);
        ConfigSources.ConfigFile file = configPath == null
                ? ConfigSources.ConfigFile.NONE
                : ConfigSources.readYaml(Path.of(configPath), yamlKeys);
        cli.setDefaultValueProvider(new ConfigSources(env, file.options()));
        try {
            cli.parseArgs(args);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        if (cli.isUsageHelpRequested()) {
            cli.usage(out);
            return null;
        }
        if (cli.isVersionHelpRequested()) {
            cli.printVersionHelp(out);
            return null;
        }
        return command.toConfig(file.admission());
    }

    /** The config file named by {@code --config} or {@code SLUICE_CONFIG}, needed before parsing the rest. */
    private static String configPath(String[] args, Map<String, String> env) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config")) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("Missing required parameter for option '--config' (PATH)");
                }
                return args[i + 1];
            }
            if (args[i].startsWith("--config=")) {
                return args[i].substring("--config=".length());
            }
        }
        String fromEnv = env.get("SLUICE_CONFIG");
        return fromEnv == null || fromEnv.isEmpty() ? null : fromEnv;
    }

    private static void run(SluiceConfig config) {
        CountDownLatch stop = new CountDownLatch(1);
        // SIGTERM and Ctrl-C drain and exit 0, as a Kubernetes pod stop expects; a JVM shutdown
        // hook alone would exit 143. Installed before starting, so an early signal is not lost.
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        SluiceServer server;
        try {
            server = SluiceServer.start(config);
        } catch (InvalidSettingsException e) {
            System.err.println("sluice: invalid limits file " + config.limitsFile() + ": " + e.getMessage());
            System.exit(EXIT_USAGE);
            return;
        } catch (IOException e) {
            System.err.println("sluice: cannot use limits file " + config.limitsFile() + ": " + e);
            System.exit(EXIT_USAGE);
            return;
        } catch (IllegalArgumentException e) {
            // A TLS or token file that cannot be used; the message names the option and the file.
            System.err.println("sluice: " + e.getMessage());
            System.exit(EXIT_USAGE);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            System.err.println("sluice: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.drainAndClose();
        System.exit(0);
    }
}
