package io.ratatosk.bench.ldbc.store;

/**
 * Dynamic string store block layout, 128 bytes: a string longer than a property record holds
 * inline is cut into blocks of {@link #DATA_CAPACITY} bytes, chained by {@link #NEXT}.
 */
final class StringBlock {
    static final int SIZE = 128;
    /** int: next block, or {@link GraphStore#NONE} in the last one. */
    static final int NEXT = 0;
    /** int: bytes of data in this block. */
    static final int USED = 4;
    static final int DATA = 8;
    static final int DATA_CAPACITY = SIZE - DATA;

    private StringBlock() {
    }
}
