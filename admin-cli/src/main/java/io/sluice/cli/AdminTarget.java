package io.sluice.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Which Sluice a command talks to and with which token: the {@code --url} and
 * {@code --token-file} options every command has, with their environment fallbacks.
 *
 * <p>Inside Sluice's own container ({@code kubectl exec}), the server's {@code SLUICE_ADMIN}
 * and {@code SLUICE_ADMIN_TOKEN} are there already, so no option is needed.
 */
final class AdminTarget {

    static final String DEFAULT_URL = "http://127.0.0.1:8080";

    @Option(names = "--url", paramLabel = "URL",
            description = "Sluice's admin API, e.g. http://sluice.pulsar.svc:8080. Default: env SLUICE_URL, else"
                    + " the admin address of a Sluice in the same container (SLUICE_ADMIN), else " + DEFAULT_URL + ".")
    String url;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "File holding the admin token (the server's --admin-token). Default: env SLUICE_TOKEN_FILE,"
                    + " else the token of a Sluice in the same container (SLUICE_ADMIN_TOKEN).")
    Path tokenFile;

    /** A client for the chosen server. @throws CliFailure (usage) for a bad URL or unreadable token file */
    AdminClient client(Invocation invocation) {
        Map<String, String> env = invocation.env();
        return new AdminClient(baseUri(env), token(env));
    }

    private URI baseUri(Map<String, String> env) {
        String text = url != null ? url : nonEmpty(env.get("SLUICE_URL"));
        String source = url != null ? "--url" : "SLUICE_URL";
        if (text == null) {
            text = fromAdminListen(nonEmpty(env.get("SLUICE_ADMIN")));
            source = "SLUICE_ADMIN";
        }
        if (text == null) {
            return URI.create(DEFAULT_URL);
        }
        try {
            URI uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw CliFailure.usage("invalid " + source + " '" + text + "': expected http://HOST:PORT or https://HOST:PORT");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw CliFailure.usage("invalid " + source + " '" + text + "': " + e.getMessage(), e);
        }
    }

    /** The server's admin listen address as a URL to reach it from the same host: 0.0.0.0 becomes 127.0.0.1. */
    private static String fromAdminListen(String listen) {
        if (listen == null) {
            return null;
        }
        int colon = listen.lastIndexOf(':');
        if (colon < 0) {
            return null;
        }
        String host = listen.substring(0, colon);
        String port = listen.substring(colon + 1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || host.equals("0.0.0.0") || host.equals("::") || host.equals("*")) {
            host = "127.0.0.1";
        }
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    private String token(Map<String, String> env) {
        Path file = tokenFile;
        String source = "--token-file";
        if (file == null && nonEmpty(env.get("SLUICE_TOKEN_FILE")) != null) {
            file = Path.of(env.get("SLUICE_TOKEN_FILE"));
            source = "SLUICE_TOKEN_FILE";
        }
        if (file == null) {
            return nonEmpty(env.get("SLUICE_ADMIN_TOKEN"));
        }
        try {
            String token = Files.readString(file).strip();
            if (token.isEmpty()) {
                throw CliFailure.usage("the token file " + file + " (" + source + ") is empty");
            }
            return token;
        } catch (IOException e) {
            throw CliFailure.usage("cannot read the token file " + file + " (" + source + "): " + e, e);
        }
    }

    private static String nonEmpty(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
