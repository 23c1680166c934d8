package io.sluice.admin;

import io.netty.channel.Channel;

import java.util.ArrayDeque;

/**
 * The admin port's connections (docs/REFERENCE.md, "Admin REST API"): the first
 * {@code --admin-max-connections} may use the whole API; past them a connection may ask one probe,
 * and four times as many such connections are kept at most: one more closes the oldest of them. So a
 * flood of connections that send nothing holds a bounded number of file descriptors (the proxy
 * ports draw on the same ones), and a probe that comes now is answered whatever the flood holds.
 *
 * <p>Confined to the admin event loop, which accepts and serves every admin connection.
 */
final class AdminSlots {

    /** Connections past the cap kept at most, per connection under it: room for a flood that reconnects. */
    static final int PAST_CAP_FACTOR = 4;

    private final int max;
    private final ArrayDeque<Channel> pastCap = new ArrayDeque<>();
    private int open;

    /** @param max connections that may use the whole API at once ({@code --admin-max-connections}) */
    AdminSlots(int max) {
        this.max = max;
    }

    /**
     * A connection was accepted: true when it may use the whole API, false when it is past the cap
     * (the oldest connection past the cap is closed when too many are).
     */
    boolean admit(Channel channel) {
        if (open < max) {
            open++;
            channel.closeFuture().addListener(closed -> open--);
            return true;
        }
        if (pastCap.size() >= PAST_CAP_FACTOR * max) {
            pastCap.poll().close();
        }
        pastCap.add(channel);
        channel.closeFuture().addListener(closed -> pastCap.remove(channel));
        return false;
    }

    /** Whether more than half of the connections that may use the whole API are open. */
    boolean crowded() {
        return open > max / 2;
    }
}
