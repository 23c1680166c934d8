package io.sluice.relay.proxyprotocol;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The peers whose PROXY protocol header is believed ({@code --proxy-protocol-from}): CIDR blocks
 * such as {@code 10.0.0.0/8} or {@code fd00::/8}; a bare address is a block of one. Immutable.
 */
public final class TrustedPeers {

    /** {@code 127.0.0.0/8,::1/128}, the default. */
    public static final TrustedPeers LOOPBACK = parse("127.0.0.0/8,::1/128");

    private final List<IpSubnetFilterRule> blocks;
    private final String text;

    private TrustedPeers(List<IpSubnetFilterRule> blocks, String text) {
        this.blocks = blocks;
        this.text = text;
    }

    /**
     * Comma-separated CIDR blocks of literal addresses (never host names: nothing is resolved).
     *
     * @throws IllegalArgumentException naming the block that is not one
     */
    public static TrustedPeers parse(String text) {
        List<IpSubnetFilterRule> blocks = new ArrayList<>();
        for (String part : text.split(",")) {
            String block = part.trim();
            if (block.isEmpty()) {
                continue;
            }
            int slash = block.indexOf('/');
            String address = slash < 0 ? block : block.substring(0, slash);
            byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
            if (bytes == null) {
                throw new IllegalArgumentException("'" + block + "' is not an address or a CIDR block");
            }
            int maxPrefix = bytes.length * 8;
            int prefix;
            try {
                prefix = slash < 0 ? maxPrefix : Integer.parseInt(block.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + block + "' has no prefix length after its '/'");
            }
            if (prefix < 0 || prefix > maxPrefix) {
                throw new IllegalArgumentException("'" + block + "': the prefix length must be 0 to " + maxPrefix);
            }
            blocks.add(new IpSubnetFilterRule(address, prefix, IpFilterRuleType.ACCEPT));
        }
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException("no CIDR block given");
        }
        return new TrustedPeers(List.copyOf(blocks), text.trim());
    }

    /** Whether {@code peer}, a connection's socket peer, may send a header. */
    public boolean trusts(SocketAddress peer) {
        if (!(peer instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return false;
        }
        for (IpSubnetFilterRule block : blocks) {
            if (block.matches(inet)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return text;
    }
}
