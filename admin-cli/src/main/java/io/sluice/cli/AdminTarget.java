package io.sluice.cli;

import picocli.CommandLine.Option;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Which Sluice a command talks to, which HTTPS certificate it believes and with which token: the
 * {@code --url}, {@code --ca-file} and {@code --token-file} options every command has, with their
 * environment fallbacks.
 *
 * <p>Inside Sluice's own container ({@code kubectl exec}), the server's {@code SLUICE_ADMIN},
 * {@code SLUICE_TLS_CERT} and {@code SLUICE_ADMIN_TOKEN_FILE} (or {@code SLUICE_ADMIN_TOKEN}) are
 * there already, so no option is needed: the CLI calls https://127.0.0.1 when the server speaks
 * HTTPS and believes exactly the server's own certificate.
 */
final class AdminTarget {

    static final String DEFAULT_URL = "http://127.0.0.1:8080";

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "Sluice's admin API, e.g. http://sluice.pulsar.svc:8080. Default: env SLUICE_URL, else"
                    + " the admin address of a Sluice in the same container (SLUICE_ADMIN), else " + DEFAULT_URL + ".")
    String url;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            description =
                    "File holding the admin token (the server's --admin-token). Default: env SLUICE_TOKEN_FILE,"
                            + " else the token of a Sluice in the same container (SLUICE_ADMIN_TOKEN_FILE or SLUICE_ADMIN_TOKEN).")
    Path tokenFile;

    @Option(
            names = "--ca-file",
            paramLabel = "FILE",
            description = "PEM CA certificates an https:// server's certificate must chain to. Default: env"
                    + " SLUICE_CA_FILE, else the JVM's trust store.")
    Path caFile;

    /** A client for the chosen server. @throws CliFailure (usage) for a bad URL or an unreadable token or CA file */
    AdminClient client(Invocation invocation) {
        Map<String, String> env = invocation.env();
        URI base = baseUri(env);
        return new AdminClient(base, token(env), trust(base, env));
    }

    /** The TLS context for an https:// URL: the CA file, the server's own certificate in its container, or the JVM's. */
    private SSLContext trust(URI base, Map<String, String> env) {
        if (!"https".equals(base.getScheme())) {
            return null;
        }
        if (caFile != null) {
            return AdminTrust.chainingTo(caFile, "--ca-file");
        }
        if (nonEmpty(env.get("SLUICE_CA_FILE")) != null) {
            return AdminTrust.chainingTo(Path.of(env.get("SLUICE_CA_FILE").strip()), "SLUICE_CA_FILE");
        }
        if (inServerContainer(env)) {
            return AdminTrust.pinnedTo(Path.of(env.get("SLUICE_TLS_CERT").strip()), "SLUICE_TLS_CERT");
        }
        return null;
    }

    /** No URL given, and the server's own settings are in the environment: the CLI runs beside it. */
    private boolean inServerContainer(Map<String, String> env) {
        return url == null
                && nonEmpty(env.get("SLUICE_URL")) == null
                && nonEmpty(env.get("SLUICE_ADMIN")) != null
                && nonEmpty(env.get("SLUICE_TLS_CERT")) != null;
    }

    private URI baseUri(Map<String, String> env) {
        String text = url != null ? url : nonEmpty(env.get("SLUICE_URL"));
        String source = url != null ? "--url" : "SLUICE_URL";
        if (text == null) {
            text = fromAdminListen(nonEmpty(env.get("SLUICE_ADMIN")), nonEmpty(env.get("SLUICE_TLS_CERT")) != null);
            source = "SLUICE_ADMIN";
        }
        if (text == null) {
            return URI.create(DEFAULT_URL);
        }
        try {
            URI uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw CliFailure.usage(
                        "invalid " + source + " '" + text + "': expected http://HOST:PORT or https://HOST:PORT");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw CliFailure.usage("invalid " + source + " '" + text + "': " + e.getMessage(), e);
        }
    }

    /**
     * The server's admin listen address as a URL to reach it from the same host: 0.0.0.0 becomes
     * 127.0.0.1, and the scheme is https when the server has a certificate.
     */
    private static String fromAdminListen(String listen, boolean https) {
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
        return (https ? "https://" : "http://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    private String token(Map<String, String> env) {
        Path file = tokenFile;
        String source = "--token-file";
        if (file == null && nonEmpty(env.get("SLUICE_TOKEN_FILE")) != null) {
            file = Path.of(env.get("SLUICE_TOKEN_FILE"));
            source = "SLUICE_TOKEN_FILE";
        }
        if (file == null && nonEmpty(env.get("SLUICE_ADMIN_TOKEN_FILE")) != null) {
            file = Path.of(env.get("SLUICE_ADMIN_TOKEN_FILE").strip());
            source = "SLUICE_ADMIN_TOKEN_FILE";
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
