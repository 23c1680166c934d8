package io.sluice.kafka.routing;

import org.apache.kafka.common.security.scram.internals.ScramSaslClientProvider;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How Sluice's own requests to the cluster (its topic id lookups and the node list it asks for at
 * start) log in on a listener that requires SASL (docs/KAFKA.md, "Topic ids"): {@code PLAIN} or
 * {@code SCRAM-SHA-256/512} as {@code username}, with the password read from {@code passwordFile}
 * each time it is used, so that a rotated file is picked up without a restart. The password is
 * never logged.
 *
 * @param mechanism    {@code --kafka-lookup-sasl-mechanism}
 * @param username     {@code --kafka-lookup-sasl-username}
 * @param passwordFile {@code --kafka-lookup-sasl-password-file}
 */
public record LookupLogin(String mechanism, String username, Path passwordFile) {

    /** The mechanisms Sluice logs in with. */
    public static final List<String> MECHANISMS = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    static {
        // kafka-clients' SCRAM client, registered with the JDK's SASL framework (which has PLAIN).
        ScramSaslClientProvider.initialize();
    }

    /** @throws IllegalArgumentException for a mechanism Sluice does not log in with, or no user name */
    public LookupLogin {
        Objects.requireNonNull(passwordFile, "passwordFile");
        if (!MECHANISMS.contains(mechanism)) {
            throw new IllegalArgumentException(
                    "must be one of " + String.join(", ", MECHANISMS) + ", got " + mechanism);
        }
        if (username == null || username.isEmpty()) {
            throw new IllegalArgumentException("a user name is needed");
        }
    }

    /** One step of the exchange with the broker: sends a token, returns the broker's answer. */
    @FunctionalInterface
    interface Broker {
        byte[] authenticate(byte[] token) throws IOException;
    }

    /**
     * Runs the SASL exchange with {@code host}, whose SaslHandshake accepted {@link #mechanism}: each
     * of the client's tokens through {@code broker}, until the client is satisfied.
     *
     * @throws IOException when the password cannot be read, the broker refuses, or the exchange fails
     */
    void authenticate(String host, Broker broker) throws IOException {
        char[] password = readPassword();
        SaslClient client = Sasl.createSaslClient(
                new String[] {mechanism}, null, "kafka", host, Map.of(), callbacks -> answer(callbacks, password));
        if (client == null) {
            throw new IOException("no SASL client for " + mechanism);
        }
        try {
            byte[] token = client.hasInitialResponse() ? client.evaluateChallenge(new byte[0]) : new byte[0];
            while (true) {
                byte[] challenge = broker.authenticate(token);
                if (client.isComplete()) {
                    return;
                }
                token = client.evaluateChallenge(challenge);
                if (client.isComplete() && (token == null || token.length == 0)) {
                    return;
                }
            }
        } catch (SaslException e) {
            throw new IOException("SASL " + mechanism + " login as " + username + " failed: " + e.getMessage(), e);
        } finally {
            Arrays.fill(password, '\0');
            client.dispose();
        }
    }

    private char[] readPassword() throws IOException {
        String text = Files.readString(passwordFile, StandardCharsets.UTF_8);
        return text.strip().toCharArray();
    }

    private void answer(Callback[] callbacks, char[] password) throws UnsupportedCallbackException {
        for (Callback callback : callbacks) {
            if (callback instanceof NameCallback name) {
                name.setName(username);
            } else if (callback instanceof PasswordCallback secret) {
                secret.setPassword(password);
            } else {
                throw new UnsupportedCallbackException(callback);
            }
        }
    }

    @Override
    public String toString() {
        return mechanism + " as " + username;
    }
}
