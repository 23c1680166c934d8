package io.sluice.testkit.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The command line of a child JVM, run by this JVM's own {@code java}. A classpath goes through
 * the {@code CLASSPATH} environment variable, never the command line: hundreds of jar paths would
 * swamp every {@code ps} listing and the orphan reaper's view of it.
 */
public final class JavaCommand {

    /** The system property every child JVM is started with; its value tells one child from any other. */
    public static final String MARKER_PROPERTY = "sluice.testkit.child";

    private final List<String> entryPoint;
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private String classpath;

    private JavaCommand(List<String> entryPoint) {
        this.entryPoint = entryPoint;
    }

    /** {@code java ... MAIN_CLASS ...}, with a classpath from {@link #classpath}. */
    public static JavaCommand mainClass(String mainClass) {
        return new JavaCommand(List.of(mainClass));
    }

    /** {@code java ... -jar JAR ...}. */
    public static JavaCommand jar(Path jar) {
        return new JavaCommand(List.of("-jar", jar.toString()));
    }

    /** Adds options for the JVM, e.g. {@code -Xmx256m}. */
    public JavaCommand jvmOptions(List<String> options) {
        jvmOptions.addAll(options);
        return this;
    }

    /** Adds options for the JVM. */
    public JavaCommand jvmOptions(String... options) {
        return jvmOptions(List.of(options));
    }

    /** The child's classpath, passed in its environment. */
    public JavaCommand classpath(String classpath) {
        this.classpath = classpath;
        return this;
    }

    /** Adds arguments for the main class or jar. */
    public JavaCommand args(List<String> arguments) {
        args.addAll(arguments);
        return this;
    }

    /** Adds arguments for the main class or jar. */
    public JavaCommand args(String... arguments) {
        return args(List.of(arguments));
    }

    /** {@code java JVM_OPTIONS ENTRY_POINT ARGS}, for a child started by other means (no marker). */
    public List<String> command() {
        return command(List.of());
    }

    /**
     * A child description running this command with a marker {@code -Dsluice.testkit.child=NAME-ID}
     * unique to it; add the log file and what else it needs, then build.
     */
    public ChildSpec.Builder spec(String name) {
        String marker = MARKER_PROPERTY + "=" + name + "-" + UUID.randomUUID();
        ChildSpec.Builder spec =
                ChildSpec.builder(name, command(List.of("-D" + marker))).marker(marker);
        if (classpath != null) {
            spec.environment("CLASSPATH", classpath);
        }
        return spec;
    }

    private List<String> command(List<String> extraJvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(extraJvmOptions);
        command.addAll(jvmOptions);
        command.addAll(entryPoint);
        command.addAll(args);
        return command;
    }
}
