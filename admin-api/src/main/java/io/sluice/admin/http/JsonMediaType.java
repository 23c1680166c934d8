package io.sluice.admin.http;

import java.util.Locale;

/**
 * Whether a {@code Content-Type} announces JSON the API can read: {@code application/json},
 * optionally with {@code charset=utf-8} (the only encoding JSON may use between systems, RFC 8259).
 */
public final class JsonMediaType {

    private JsonMediaType() {}

    /** True for {@code application/json} and {@code application/json; charset=utf-8}, in any case. */
    public static boolean accepts(String contentType) {
        if (contentType == null) {
            return false;
        }
        String[] parts = contentType.split(";");
        if (!parts[0].trim().equalsIgnoreCase("application/json")) {
            return false;
        }
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("charset=") && !parameter.replace("\"", "").equals("charset=utf-8")) {
                return false;
            }
        }
        return true;
    }
}
