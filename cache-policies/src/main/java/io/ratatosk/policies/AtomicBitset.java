package io.ratatosk.policies;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed bitset that many threads set and clear at once: each change is one atomic
 * {@code getAndBitwiseOr} or {@code getAndBitwiseAnd} on its {@code long} word (a locked OR/AND on
 * x86), so two writers of one word never lose each other's bit, and nothing is retried. The size is
 * a power of two, so a hash picks a bit with a mask.
 */
final class AtomicBitset {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] words;
    private final long mask;

    /** @param bits a power of two, at least 64 */
    AtomicBitset(int bits) {
        if (bits < Long.SIZE || Integer.bitCount(bits) != 1) {
            throw new IllegalArgumentException("bit count must be a power of two >= 64: bits=" + bits);
        }
        words = new long[bits / Long.SIZE];
        mask = bits - 1;
    }

    int size() {
        return words.length * Long.SIZE;
    }

    /** The bit {@code hash} maps to. */
    int bitOf(long hash) {
        return (int) (hash & mask);
    }

    /** Sets the bit; true if it was clear. */
    boolean set(int bit) {
        long m = 1L << bit;
        return ((long) WORDS.getAndBitwiseOr(words, bit >>> 6, m) & m) == 0;
    }

    /** Clears the bit; true if it was set. */
    boolean clear(int bit) {
        long m = 1L << bit;
        return ((long) WORDS.getAndBitwiseAnd(words, bit >>> 6, ~m) & m) != 0;
    }

    boolean get(int bit) {
        return ((long) WORDS.getVolatile(words, bit >>> 6) & (1L << bit)) != 0;
    }

    /** Number of bits set (a racy sum while writers run). */
    int cardinality() {
        int count = 0;
        for (int i = 0; i < words.length; i++) {
            count += Long.bitCount((long) WORDS.getVolatile(words, i));
        }
        return count;
    }
}
