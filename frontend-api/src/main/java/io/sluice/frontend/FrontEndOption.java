package io.sluice.frontend;

import java.util.Objects;

/**
 * One command-line option a front end adds to {@code sluice.jar}. Like every option it can also be
 * set by the environment variable {@code SLUICE_<NAME>} ({@code --kafka-listen} is
 * {@code SLUICE_KAFKA_LISTEN}) or the camelCase key of the {@code --config} YAML file
 * ({@code kafkaListen}); flags win over the environment, the environment over the file. A front
 * end reads the merged value through {@link OptionValues}.
 *
 * @param helpOrder    where the option shows in {@code --help}, among Sluice's own options
 *                     (numbered 30 to 240, mostly in tens, {@code --help} and {@code --version} last at
 *                     10000) and other front ends' (Pulsar 10-80, Kafka 300-350); a new front
 *                     end takes numbers from 400 up. Front ends are also listed in the order of
 *                     their {@linkplain FrontEndFactory#enablingOption() enabling options}
 * @param name         the long name, {@code --} and lower-case words joined by {@code -}
 * @param paramLabel   what the value is in {@code --help}: {@code HOST:PORT}, {@code URL}
 * @param defaultValue the value when nothing sets it, or null for none
 * @param description  the {@code --help} text; {@code ${DEFAULT-VALUE}} stands for the default
 * @param flag         a boolean: given alone it means {@code true} ({@code --x} or {@code --x=false})
 */
public record FrontEndOption(
        int helpOrder, String name, String paramLabel, String defaultValue, String description, boolean flag) {

    public FrontEndOption {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(paramLabel, "paramLabel");
        Objects.requireNonNull(description, "description");
        if (!name.matches("--[a-z0-9]+(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("option name " + name + " is not --lower-case-words");
        }
    }

    /** An option taking a value, read with {@link OptionValues#value}. */
    public static FrontEndOption text(
            int helpOrder, String name, String paramLabel, String defaultValue, String description) {
        return new FrontEndOption(helpOrder, name, paramLabel, defaultValue, description, false);
    }

    /** A boolean option, false unless given, read with {@link OptionValues#flag}. */
    public static FrontEndOption flag(int helpOrder, String name, String description) {
        return new FrontEndOption(helpOrder, name, "BOOLEAN", "false", description, true);
    }
}
