package io.sluice.admin.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The path of a request as a list of percent-decoded segments. Segments are decoded one by one
 * after splitting on {@code /}, so an encoded slash ({@code %2F}) stays inside its segment, and
 * {@code +} stays a plus (it means a space only in query strings).
 *
 * @param segments the decoded segments; {@code /a/b/} is {@code [a, b, ""]}
 */
public record RequestPath(List<String> segments) {

    public RequestPath {
        segments = List.copyOf(segments);
    }

    /**
     * Decodes the raw path of a request target (without the query).
     *
     * @throws ApiException 400 when the path does not start with {@code /} or has a bad escape
     */
    public static RequestPath parse(String rawPath) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            throw ApiException.badRequest("path: must start with /, got " + rawPath);
        }
        List<String> segments = new ArrayList<>();
        int start = 1;
        while (true) {
            int slash = rawPath.indexOf('/', start);
            int end = slash < 0 ? rawPath.length() : slash;
            segments.add(decode(rawPath.substring(start, end)));
            if (slash < 0) {
                return new RequestPath(segments);
            }
            start = slash + 1;
        }
    }

    /** True when this path starts with {@code prefix}'s segments. */
    public boolean startsWith(List<String> prefix) {
        return segments.size() >= prefix.size()
                && segments.subList(0, prefix.size()).equals(prefix);
    }

    @Override
    public String toString() {
        return "/" + String.join("/", segments);
    }

    private static String decode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                byte[] plain = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(plain, 0, plain.length);
                continue;
            }
            int high = i + 2 < segment.length() ? Character.digit(segment.charAt(i + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(segment.charAt(i + 2), 16);
            if (low < 0) {
                throw ApiException.badRequest("path: bad percent-escape in segment " + segment);
            }
            bytes.write(high << 4 | low);
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw ApiException.badRequest("path: segment " + segment + " is not UTF-8 once decoded");
        }
    }
}
