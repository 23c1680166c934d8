package io.sluice.relay;

/**
 * What a client sent, made fit for a log line: control characters, quotes and backslashes escaped
 * ({@code \n}, {@code \"}, {@code \u001b}), so that a value cannot start a line of its own or end
 * the quotes around it, and cut at {@link #MAX_CHARACTERS} characters of the escaped text, saying
 * how long the value was. Every value a client chooses (a {@code proxy_to_broker_url}, a client
 * id, a topic, a SASL mechanism, a request path) goes through here before it is logged.
 */
public final class ClientText {

    /** The most characters of a client's value a log line holds. */
    public static final int MAX_CHARACTERS = 256;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ClientText() {}

    /** {@code value} escaped and cut; {@code null} for null. */
    public static String of(CharSequence value) {
        if (value == null) {
            return "null";
        }
        StringBuilder text = new StringBuilder(Math.min(value.length(), MAX_CHARACTERS) + 32);
        int i = 0;
        for (; i < value.length(); i++) {
            int before = text.length();
            append(text, value.charAt(i));
            if (text.length() > MAX_CHARACTERS) {
                // Never half an escape.
                text.setLength(before);
                break;
            }
        }
        if (i < value.length()) {
            text.append("...(cut, ").append(value.length()).append(" characters in all)");
        }
        return text.toString();
    }

    private static void append(StringBuilder text, char c) {
        switch (c) {
            case '\n' -> text.append("\\n");
            case '\r' -> text.append("\\r");
            case '\t' -> text.append("\\t");
            case '"' -> text.append("\\\"");
            case '\\' -> text.append("\\\\");
            default -> {
                if (c < 0x20 || c == 0x7f || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                    text.append("\\u")
                            .append(HEX[(c >> 12) & 0xf])
                            .append(HEX[(c >> 8) & 0xf])
                            .append(HEX[(c >> 4) & 0xf])
                            .append(HEX[c & 0xf]);
                } else {
                    text.append(c);
                }
            }
        }
    }
}
