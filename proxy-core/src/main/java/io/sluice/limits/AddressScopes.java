package io.sluice.limits;

import io.sluice.address.CidrBlock;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The {@code ips} scope a client address falls under in one limits document: the block with the
 * longest prefix that holds it (all the addresses of a block share its limit), else, when the
 * document has a {@code "*"} entry, the address itself ({@code 10.1.2.3/32}), in a bucket of its
 * own; {@code null} when neither. A lookup masks the address once per prefix length the document
 * uses, longest first. Immutable and thread-safe.
 */
public final class AddressScopes {

    private final Map<CidrBlock, ScopeRef> blocks;
    /** Prefix lengths in use, longest first, per family. */
    private final int[] ipv4Prefixes;

    private final int[] ipv6Prefixes;
    private final boolean perAddress;

    private AddressScopes(Map<CidrBlock, ScopeRef> blocks, int[] ipv4Prefixes, int[] ipv6Prefixes, boolean perAddress) {
        this.blocks = blocks;
        this.ipv4Prefixes = ipv4Prefixes;
        this.ipv6Prefixes = ipv6Prefixes;
        this.perAddress = perAddress;
    }

    /** The {@code ips} entries of {@code limits}, whose names its kind's rule keeps canonical. */
    public static AddressScopes of(LimitsDocument limits) {
        Map<CidrBlock, ScopeRef> blocks = new HashMap<>();
        TreeSet<Integer> ipv4 = new TreeSet<>();
        TreeSet<Integer> ipv6 = new TreeSet<>();
        boolean perAddress = false;
        for (String name : limits.limitsOf(ScopeKind.IPS).keySet()) {
            if (ScopeKind.DEFAULT_NAME.equals(name)) {
                perAddress = true;
                continue;
            }
            CidrBlock block = CidrBlock.parse(name);
            blocks.put(block, new ScopeRef(ScopeKind.IPS, name));
            (block.isIpv6() ? ipv6 : ipv4).add(block.prefix());
        }
        return new AddressScopes(Map.copyOf(blocks), longestFirst(ipv4), longestFirst(ipv6), perAddress);
    }

    /** Whether no address is limited. */
    public boolean isEmpty() {
        return blocks.isEmpty() && !perAddress;
    }

    /** The scope {@code address} is limited at, or {@code null} when none is. */
    public ScopeRef scopeOf(InetAddress address) {
        byte[] bytes = address.getAddress();
        for (int prefix : bytes.length == 16 ? ipv6Prefixes : ipv4Prefixes) {
            ScopeRef scope = blocks.get(CidrBlock.of(bytes, prefix));
            if (scope != null) {
                return scope;
            }
        }
        return perAddress ? new ScopeRef(ScopeKind.IPS, CidrBlock.of(address).toString()) : null;
    }

    private static int[] longestFirst(TreeSet<Integer> prefixes) {
        List<Integer> ordered = new ArrayList<>(prefixes.descendingSet());
        return ordered.stream().mapToInt(Integer::intValue).toArray();
    }
}
