package io.sluice.server.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import org.slf4j.event.KeyValuePair;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * One JSON object a line, as log collectors (Kubernetes' among them) take them:
 * {@code {"time":"2026-12-04T23:31:33.933Z","level":"WARN","logger":"io.sluice...","thread":"...",
 * "message":"...","fields":{...},"error":"..."}}, {@code fields} for the event's key-value pairs and
 * {@code error} for its stack trace when it has them. An audit entry (logger {@code io.sluice.audit},
 * already a JSON object) is the line's {@code audit} object rather than a string.
 */
public final class JsonLineEncoder extends EncoderBase<ILoggingEvent> {

    private static final String AUDIT_LOGGER = "io.sluice.audit";
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        StringBuilder line = new StringBuilder(256);
        line.append("{\"time\":");
        string(line, Instant.ofEpochMilli(event.getTimeStamp()).toString());
        line.append(",\"level\":");
        string(line, event.getLevel().toString());
        line.append(",\"logger\":");
        string(line, event.getLoggerName());
        line.append(",\"thread\":");
        string(line, event.getThreadName());
        String message = event.getFormattedMessage();
        if (AUDIT_LOGGER.equals(event.getLoggerName()) && message != null && message.startsWith("{")) {
            line.append(",\"message\":\"audit\",\"audit\":").append(message);
        } else {
            line.append(",\"message\":");
            string(line, message);
        }
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs != null && !pairs.isEmpty()) {
            line.append(",\"fields\":{");
            for (int i = 0; i < pairs.size(); i++) {
                if (i > 0) {
                    line.append(',');
                }
                string(line, pairs.get(i).key);
                line.append(':');
                string(line, String.valueOf(pairs.get(i).value));
            }
            line.append('}');
        }
        if (event.getThrowableProxy() != null) {
            line.append(",\"error\":");
            string(line, ThrowableProxyUtil.asString(event.getThrowableProxy()));
        }
        line.append("}\n");
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    /** {@code text} as a JSON string: quotes, backslashes and control characters escaped. */
    static void string(StringBuilder out, String text) {
        if (text == null) {
            out.append("null");
            return;
        }
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == 0x2028 || c == 0x2029) {
                        out.append("\\u")
                                .append(HEX[(c >> 12) & 0xf])
                                .append(HEX[(c >> 8) & 0xf])
                                .append(HEX[(c >> 4) & 0xf])
                                .append(HEX[c & 0xf]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
