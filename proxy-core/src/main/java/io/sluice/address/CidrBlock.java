package io.sluice.address;

import io.sluice.settings.InvalidSettingsException;

import java.net.InetAddress;
import java.util.Arrays;

/**
 * A block of IPv4 or IPv6 addresses, {@code 10.1.0.0/16} or {@code 2001:db8::/32}: the name of
 * an {@code ips} limit. Parsed here, never by a name lookup, from text an operator or a client
 * wrote; a bare address is its own block ({@code /32}, {@code /128}). Kept canonical: the bits
 * past the prefix zeroed, IPv4 in dotted decimal, IPv6 as RFC 5952 writes it (lower case, the
 * longest run of two or more zero groups as {@code ::}). Immutable; equal when address and prefix are.
 */
public final class CidrBlock {

    /** Longer names are no CIDR: an IPv6 address with an IPv4 tail and a prefix is 49 characters. */
    static final int MAX_LENGTH = 64;

    private final byte[] address;
    private final int prefix;

    private CidrBlock(byte[] address, int prefix) {
        this.address = address;
        this.prefix = prefix;
        mask(address, prefix);
    }

    /**
     * Reads {@code a.b.c.d[/n]} or an IPv6 address {@code [/n]}.
     *
     * @throws InvalidSettingsException (with an empty path) quoting {@code text} and saying what is wrong
     */
    public static CidrBlock parse(String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
            throw bad(text, "an IPv4 or IPv6 address, optionally with /prefix");
        }
        int slash = text.indexOf('/');
        String host = slash < 0 ? text : text.substring(0, slash);
        byte[] address = host.indexOf(':') >= 0 ? ipv6(host, text) : ipv4(host, text, 0, new byte[4]);
        int bits = address.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            prefix = decimal(text.substring(slash + 1), bits, text, "a prefix length from 0 to " + bits);
        }
        return new CidrBlock(address, prefix);
    }

    /** The block of exactly one address: {@code /32} or {@code /128}. */
    public static CidrBlock of(InetAddress address) {
        byte[] bytes = address.getAddress();
        return new CidrBlock(bytes, bytes.length * 8);
    }

    /** The block of the {@code prefix} first bits of {@code address} (4 or 16 bytes, not kept). */
    public static CidrBlock of(byte[] address, int prefix) {
        return new CidrBlock(address.clone(), prefix);
    }

    /** The prefix length: 0 to 32 for IPv4, to 128 for IPv6. */
    public int prefix() {
        return prefix;
    }

    /** Whether this is an IPv6 block. */
    public boolean isIpv6() {
        return address.length == 16;
    }

    /** Whether {@code address} (4 or 16 bytes) is in this block; an address of the other family never is. */
    public boolean contains(byte[] other) {
        if (other.length != address.length) {
            return false;
        }
        int whole = prefix / 8;
        for (int i = 0; i < whole; i++) {
            if (other[i] != address[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        return rest == 0 || ((other[whole] ^ address[whole]) & (0xFF << (8 - rest)) & 0xFF) == 0;
    }

    /** The canonical text form, with its prefix always: {@code 10.1.0.0/16}, {@code 10.1.2.3/32}, {@code ::1/128}. */
    @Override
    public String toString() {
        return (isIpv6() ? ipv6Text(address) : ipv4Text(address)) + "/" + prefix;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CidrBlock block && block.prefix == prefix && Arrays.equals(block.address, address);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(address) + prefix;
    }

    private static void mask(byte[] address, int prefix) {
        for (int bit = prefix; bit < address.length * 8; bit++) {
            address[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
    }

    /** Reads dotted decimal into {@code into} from {@code offset}; four parts, 0 to 255, no leading zeros. */
    private static byte[] ipv4(String host, String text, int offset, byte[] into) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            throw bad(text, "an IPv4 address of four numbers from 0 to 255, or an IPv6 address");
        }
        for (int i = 0; i < 4; i++) {
            into[offset + i] = (byte) decimal(parts[i], 255, text, "four numbers from 0 to 255 in an IPv4 address");
        }
        return into;
    }

    /** Reads an IPv6 address: eight groups of up to four hex digits, one {@code ::} at most, an IPv4 tail allowed. */
    private static byte[] ipv6(String host, String text) {
        byte[] address = new byte[16];
        int gap = host.indexOf("::");
        if (gap >= 0 && host.indexOf("::", gap + 1) >= 0) {
            throw bad(text, "at most one :: in an IPv6 address");
        }
        String head = gap < 0 ? host : host.substring(0, gap);
        String tail = gap < 0 ? "" : host.substring(gap + 2);
        byte[] front = groups(head, text, gap < 0);
        byte[] back = groups(tail, text, true);
        int length = front.length + back.length;
        if (gap < 0 ? length != 16 : length > 14) {
            throw bad(text, "an IPv6 address of eight groups of up to four hex digits");
        }
        System.arraycopy(front, 0, address, 0, front.length);
        System.arraycopy(back, 0, address, 16 - back.length, back.length);
        return address;
    }

    /** The bytes of {@code groups} of an IPv6 address; the last may be an IPv4 address when {@code ipv4Tail}. */
    private static byte[] groups(String groups, String text, boolean ipv4Tail) {
        if (groups.isEmpty()) {
            return new byte[0];
        }
        String[] parts = groups.split(":", -1);
        boolean dotted = ipv4Tail && parts[parts.length - 1].indexOf('.') >= 0;
        if (parts.length > 8) {
            throw bad(text, "an IPv6 address of eight groups of up to four hex digits");
        }
        byte[] bytes = new byte[parts.length * 2 + (dotted ? 2 : 0)];
        for (int i = 0; i < parts.length; i++) {
            if (dotted && i == parts.length - 1) {
                ipv4(parts[i], text, i * 2, bytes);
                break;
            }
            String group = parts[i];
            if (group.isEmpty() || group.length() > 4) {
                throw bad(text, "groups of one to four hex digits in an IPv6 address");
            }
            int value = 0;
            for (int c = 0; c < group.length(); c++) {
                int digit = Character.digit(group.charAt(c), 16);
                if (digit < 0 || group.charAt(c) > 'f') {
                    throw bad(text, "groups of one to four hex digits in an IPv6 address");
                }
                value = value * 16 + digit;
            }
            bytes[i * 2] = (byte) (value >>> 8);
            bytes[i * 2 + 1] = (byte) value;
        }
        return bytes;
    }

    /** A plain decimal from 0 to {@code max}: ASCII digits, no sign, no leading zero. */
    private static int decimal(String digits, int max, String text, String expected) {
        if (digits.isEmpty() || digits.length() > 3 || (digits.length() > 1 && digits.charAt(0) == '0')) {
            throw bad(text, expected);
        }
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                throw bad(text, expected);
            }
            value = value * 10 + (c - '0');
        }
        if (value > max) {
            throw bad(text, expected);
        }
        return value;
    }

    private static String ipv4Text(byte[] address) {
        return (address[0] & 0xFF) + "." + (address[1] & 0xFF) + "." + (address[2] & 0xFF) + "." + (address[3] & 0xFF);
    }

    /** RFC 5952: lower-case hex without leading zeros, the first longest run of two or more zero groups as {@code ::}. */
    private static String ipv6Text(byte[] address) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((address[i * 2] & 0xFF) << 8) | (address[i * 2 + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }

    private static InvalidSettingsException bad(String text, String expected) {
        return new InvalidSettingsException(
                "", "must be a CIDR block: " + expected + ", got " + InvalidSettingsException.quoted(text));
    }
}
