package io.sluice.testing;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Seeded mutations of seed inputs, for the bounded fuzz runs inside {@code mvn verify}: Jazzer
 * only replays its corpus there, so each fuzz target also gets a few thousand inputs from this,
 * repeatable from the seed. Mutations that keep most of a frame's structure (flipping a byte,
 * splicing two inputs, writing an extreme 32-bit value) reach deeper than random bytes.
 */
public final class ByteMutator {

    private static final int[] EXTREMES = {
        0, 1, 3, 4, 0x7f, 0x80, 0xff, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x0e01, 0x0e02
    };

    private final Random random;
    private final List<byte[]> seeds;

    public ByteMutator(long seed, List<byte[]> seeds) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no seed inputs");
        }
        this.random = new Random(seed);
        this.seeds = seeds;
    }

    /**
     * Runs {@code inputs} new inputs ({@link #next}) through {@code target}; an input it fails on
     * fails the run, named in hex so that it can be replayed.
     */
    public void feed(int inputs, Consumer<byte[]> target) {
        for (int i = 0; i < inputs; i++) {
            byte[] input = next();
            try {
                target.accept(input);
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("input " + HexFormat.of().formatHex(input), e);
            }
        }
    }

    /** A new input: a seed with one to four mutations. */
    public byte[] next() {
        byte[] input = seeds.get(random.nextInt(seeds.size()));
        int mutations = 1 + random.nextInt(4);
        for (int i = 0; i < mutations; i++) {
            input = mutate(input);
        }
        return input;
    }

    private byte[] mutate(byte[] input) {
        int at = input.length == 0 ? 0 : random.nextInt(input.length);
        switch (random.nextInt(6)) {
            case 0 -> { // flip a byte
                byte[] out = Arrays.copyOf(input, Math.max(1, input.length));
                out[at] = (byte) random.nextInt(256);
                return out;
            }
            case 1 -> { // write an extreme 16- or 32-bit value
                byte[] out = Arrays.copyOf(input, Math.max(at + 4, input.length));
                int value = EXTREMES[random.nextInt(EXTREMES.length)];
                for (int i = 0; i < 4; i++) {
                    out[at + i] = (byte) (value >>> (24 - 8 * i));
                }
                return out;
            }
            case 2 -> { // cut
                return Arrays.copyOf(input, at);
            }
            case 3 -> { // delete a span
                int length = Math.min(input.length - at, 1 + random.nextInt(16));
                byte[] out = new byte[input.length - length];
                System.arraycopy(input, 0, out, 0, at);
                System.arraycopy(input, at + length, out, at, input.length - at - length);
                return out;
            }
            case 4 -> { // splice in a piece of another seed
                byte[] other = seeds.get(random.nextInt(seeds.size()));
                int from = other.length == 0 ? 0 : random.nextInt(other.length);
                int length = Math.min(other.length - from, 1 + random.nextInt(64));
                byte[] out = new byte[input.length + length];
                System.arraycopy(input, 0, out, 0, at);
                System.arraycopy(other, from, out, at, length);
                System.arraycopy(input, at, out, at + length, input.length - at);
                return out;
            }
            default -> { // duplicate a span (repeated frames, repeated fields)
                int length = Math.min(input.length - at, 1 + random.nextInt(128));
                byte[] out = new byte[input.length + length];
                System.arraycopy(input, 0, out, 0, at + length);
                System.arraycopy(input, at, out, at + length, input.length - at);
                return out;
            }
        }
    }
}
