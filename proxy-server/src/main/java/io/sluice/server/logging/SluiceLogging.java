package io.sluice.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sluice's logging (docs/REFERENCE.md, "Logging"): every event goes through a
 * {@link DroppingAsyncAppender} to stderr, as text or as JSON lines, so that no event loop ever
 * waits for the log. Logback finds this class as its configurator and starts with
 * {@link LogSettings#DEFAULTS}; {@code SluiceMain} puts the command line's settings in force once it
 * has read them ({@link #apply}). A {@code logback.xml} (or {@code logback-test.xml}) on the class
 * path, or {@code -Dlogback.configurationFile}, takes precedence over both.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_LOW_PRIORITY)
public final class SluiceLogging extends ContextAwareBase implements Configurator {

    /** The text format: what Sluice's lines always looked like. */
    static final String TEXT_PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSZ} %level %logger{0} - %msg%n";

    private static final AtomicBoolean FLUSH_AT_EXIT = new AtomicBoolean();

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (configuredElsewhere()) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        configure(context, LogSettings.DEFAULTS);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** Puts {@code settings} in force, unless Logback is not the backend or a configuration file was given. */
    public static void apply(LogSettings settings) {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context && !configuredElsewhere()) {
            context.reset();
            configure(context, settings);
        }
    }

    private static boolean configuredElsewhere() {
        ClassLoader loader = SluiceLogging.class.getClassLoader();
        return System.getProperty("logback.configurationFile") != null
                || loader.getResource("logback-test.xml") != null
                || loader.getResource("logback.xml") != null;
    }

    private static void configure(LoggerContext context, LogSettings settings) {
        Encoder<ILoggingEvent> encoder = encoder(context, settings.format());
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("stderr");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        DroppingAsyncAppender async = new DroppingAsyncAppender();
        async.setContext(context);
        async.setName("async");
        async.addAppender(stderr);
        async.start();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(settings.levels().root()));
        root.addAppender(async);
        settings.levels()
                .loggers()
                .forEach((name, level) -> context.getLogger(name).setLevel(Level.toLevel(level)));
        if (FLUSH_AT_EXIT.compareAndSet(false, true)) {
            // What is still queued at exit is written (for up to a second), not lost.
            Runtime.getRuntime().addShutdownHook(new Thread(context::stop, "sluice-log-flush"));
        }
    }

    private static Encoder<ILoggingEvent> encoder(LoggerContext context, LogFormat format) {
        if (format == LogFormat.JSON) {
            JsonLineEncoder json = new JsonLineEncoder();
            json.setContext(context);
            return json;
        }
        PatternLayoutEncoder text = new PatternLayoutEncoder();
        text.setContext(context);
        text.setPattern(TEXT_PATTERN);
        return text;
    }
}
