package io.sluice.cli;

import picocli.CommandLine;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Set;

/**
 * The admin command line of {@code sluice.jar}: {@code sluice limits|throttled|topics|admission ...},
 * a client of a running Sluice's admin REST API (see the README's CLI section and
 * docs/OPERATIONS.md). The server's {@code main} hands these subcommands here.
 *
 * <p>Exit codes: {@value #OK} done, {@value #REFUSED} the server said no (or not found),
 * {@value #USAGE} bad usage or an unusable file, {@value #UNREACHABLE} no answer from the server.
 * Each failure is one line on standard error, starting {@code sluice: }.
 */
public final class AdminCli {

    public static final int OK = 0;
    public static final int REFUSED = 1;
    public static final int USAGE = 2;
    public static final int UNREACHABLE = 3;

    private static final Set<String> COMMANDS = Set.of("limits", "throttled", "topics", "admission");

    private AdminCli() {}

    /** Whether {@code args} ask for an admin subcommand rather than for running the proxy. */
    public static boolean handles(String[] args) {
        return args.length > 0 && COMMANDS.contains(args[0]);
    }

    /** Runs one admin command with the process's environment and streams; returns the exit code. */
    public static int run(String[] args) {
        return run(args, System.getenv(), System.in, System.out, System.err, Clock.systemUTC());
    }

    /** Runs one admin command; returns the exit code. Nothing is written to the streams after it returns. */
    public static int run(
            String[] args, Map<String, String> env, InputStream in, PrintStream out, PrintStream err, Clock clock) {
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
        Invocation invocation = new Invocation(env, in, outWriter, errWriter, clock);
        CommandLine cli = new CommandLine(new AdminCommands(), new InvocationFactory(invocation));
        addHelpOption(cli);
        cli.setOut(outWriter);
        cli.setErr(errWriter);
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof CliFailure failure) {
                errWriter.println("sluice: " + failure.getMessage());
                return failure.exitCode();
            }
            throw e;
        });
        cli.setParameterExceptionHandler((e, arguments) -> {
            errWriter.println("sluice: " + e.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(e, errWriter);
            errWriter.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return USAGE;
        });
        try {
            return cli.execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /** {@code -h}/{@code --help} on every command. */
    private static void addHelpOption(CommandLine command) {
        command.getCommandSpec()
                .addOption(CommandLine.Model.OptionSpec.builder("-h", "--help")
                        .usageHelp(true)
                        .description("Show this help and exit.")
                        .build());
        command.getSubcommands().values().forEach(AdminCli::addHelpOption);
    }

    /** Creates the commands with the invocation they run in; everything else as picocli does. */
    private record InvocationFactory(Invocation invocation) implements CommandLine.IFactory {

        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                Constructor<K> constructor = type.getDeclaredConstructor(Invocation.class);
                return constructor.newInstance(invocation);
            } catch (NoSuchMethodException noInvocation) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
