package io.sluice.server;

import io.sluice.frontend.HostPort;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * Who may use the admin API besides the holder of the admin token, and how many at once
 * (docs/REFERENCE.md, "Admin REST API").
 *
 * @param insecure       {@code --admin-insecure}: an admin port on an address other than loopback
 *                       without a token is accepted, and warned about at every start; without it
 *                       Sluice refuses to start so
 * @param readTokenFile  {@code --admin-read-token-file}: the file of a token that may only {@code GET}
 *                       under {@code /api/v1}, or null for none
 * @param maxConnections {@code --admin-max-connections}: admin connections open at once
 */
public record AdminAccess(boolean insecure, Path readTokenFile, int maxConnections) {

    /** No read-only token, no open door, 64 connections. */
    public static final AdminAccess DEFAULTS = new AdminAccess(false, null, 64);

    public AdminAccess {
        if (maxConnections <= 0) {
            throw new IllegalArgumentException("maxConnections must be positive, got " + maxConnections);
        }
    }

    /**
     * Whether the admin port would be open to anyone who reaches it: on an address other than
     * loopback, without a token.
     */
    static boolean openDoor(HostPort admin, boolean hasToken) {
        return !hasToken && !isLoopback(admin.host());
    }

    /** The one line Sluice refuses to start with, naming the three ways out. */
    static String refusal(HostPort admin) {
        return "the admin API on " + admin + " would let anyone who reaches it change every limit: give it a"
                + " token (--admin-token-file PATH), bind it to loopback (--admin 127.0.0.1:" + admin.port()
                + "), or accept the risk (--admin-insecure)";
    }

    /** A host every address of which is a loopback address; resolved at start, never on an event loop. */
    private static boolean isLoopback(String host) {
        try {
            InetAddress[] addresses = InetAddress.getAllByName(host);
            for (InetAddress address : addresses) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return addresses.length > 0;
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
