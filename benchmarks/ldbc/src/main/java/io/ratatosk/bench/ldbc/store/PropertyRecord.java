package io.ratatosk.bench.ldbc.store;

/**
 * Property record layout, 32 bytes, one property each, chained by {@link #NEXT}. The value is a
 * long, a string of up to {@link #INLINE_CAPACITY} UTF-8 bytes held inline, or a reference to a
 * chain of {@link StringBlock}s in the dynamic string store.
 */
final class PropertyRecord {
    static final int SIZE = 32;
    /** byte: 1 when the record holds a property. */
    static final int IN_USE = 0;
    /** byte: {@link PropertyKey#code()}. */
    static final int KEY = 1;
    /** byte: {@link #LONG}, {@link #INLINE_STRING} or {@link #DYNAMIC_STRING}. */
    static final int VALUE_TYPE = 2;
    /** byte: length in bytes of an inline string. */
    static final int INLINE_LENGTH = 3;
    /** int: next property record, or {@link GraphStore#NONE}. */
    static final int NEXT = 4;
    /** long for {@link #LONG}; the bytes for {@link #INLINE_STRING}. */
    static final int VALUE = 8;
    /** int: first string block, for {@link #DYNAMIC_STRING}. */
    static final int DYNAMIC_FIRST_BLOCK = 8;
    /** int: length in bytes, for {@link #DYNAMIC_STRING}. */
    static final int DYNAMIC_LENGTH = 12;
    static final int INLINE_CAPACITY = SIZE - VALUE;

    static final int LONG = 1;
    static final int INLINE_STRING = 2;
    static final int DYNAMIC_STRING = 3;

    private PropertyRecord() {
    }
}
