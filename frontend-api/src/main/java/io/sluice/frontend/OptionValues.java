package io.sluice.frontend;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The values of the options, after flags, environment and config file are merged, as a
 * {@link FrontEndFactory} reads its own in {@link FrontEndFactory#configure}. A bad value is
 * reported as one line naming the option, {@code invalid --listen: expected HOST:PORT, got 'x'}:
 * {@link #parse} words it so, and Sluice prints it and exits with code 2.
 */
public interface OptionValues {

    /** The value of a {@linkplain FrontEndOption#text text option} as given, or its default; null when neither. */
    String value(String option);

    /** The value of a {@linkplain FrontEndOption#flag flag option}. */
    boolean flag(String option);

    /** Whether a text option has a value that is not blank. */
    default boolean isSet(String option) {
        String value = value(option);
        return value != null && !value.isBlank();
    }

    /**
     * What {@code parse} makes of an option's value; when it throws, an IllegalArgumentException
     * {@code invalid <option>: <its message>}.
     */
    static <T> T parse(String option, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid " + option + ": " + e.getMessage());
        }
    }

    /** A whole number above zero. */
    static int positiveInt(String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value <= 0) {
                throw new IllegalArgumentException("must be a positive integer, got " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a positive integer, got '" + text + "'");
        }
    }

    /**
     * A count of bytes above zero: a whole number, or one followed by {@code KiB}, {@code MiB} or
     * {@code GiB} (powers of 1024), e.g. {@code 64MiB}.
     */
    static long positiveBytes(String text) {
        String trimmed = text.strip();
        String[] units = {"KiB", "MiB", "GiB"};
        long unit = 1;
        String digits = trimmed;
        for (int i = 0; i < units.length; i++) {
            if (trimmed.endsWith(units[i])) {
                unit = 1L << (10 * (i + 1));
                digits = trimmed.substring(0, trimmed.length() - units[i].length())
                        .strip();
                break;
            }
        }
        try {
            long value = Math.multiplyExact(Long.parseLong(digits), unit);
            if (value <= 0) {
                throw new IllegalArgumentException("must be a positive number of bytes, got " + text);
            }
            return value;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    "expected a number of bytes such as 67108864 or 64MiB (KiB, MiB, GiB), got '" + text + "'");
        }
    }

    /** One of two words, in any case: {@code passthrough} or {@code rewrite}, as both front ends spell their modes. */
    static <M> M either(String text, String first, M firstValue, String second, M secondValue) {
        String word = text.toLowerCase(Locale.ROOT);
        if (word.equals(first)) {
            return firstValue;
        }
        if (word.equals(second)) {
            return secondValue;
        }
        throw new IllegalArgumentException("expected " + first + " or " + second + ", got '" + text + "'");
    }
}
