package io.ratatosk.bench.ldbc.store;

/**
 * The values of the wanted properties of one node or relationship, filled by
 * {@link StoreReader#properties}. The property chain is walked only until every wanted key was
 * seen, and only wanted strings are decoded. A string property that is absent reads as "" (the
 * store does not keep empty strings).
 */
public final class PropertyValues {
    private final int wanted;
    private int found;
    private final long[] longs = new long[PropertyKey.CODE_LIMIT];
    private final String[] strings = new String[PropertyKey.CODE_LIMIT];

    public PropertyValues(int wantedMask) {
        this.wanted = wantedMask;
    }

    public static PropertyValues of(PropertyKey... keys) {
        return new PropertyValues(PropertyKey.mask(keys));
    }

    void reset() {
        found = 0;
    }

    boolean wants(PropertyKey key) {
        return (wanted & key.bit()) != 0;
    }

    boolean complete() {
        return (found & wanted) == wanted;
    }

    void setLong(PropertyKey key, long value) {
        longs[key.code()] = value;
        found |= key.bit();
    }

    void setString(PropertyKey key, String value) {
        strings[key.code()] = value;
        found |= key.bit();
    }

    public boolean has(PropertyKey key) {
        return (found & key.bit()) != 0;
    }

    /** The long value of {@code key}; the key must be wanted and present. */
    public long getLong(PropertyKey key) {
        if (!has(key)) {
            throw new IllegalStateException("property " + key + " is " + ((wanted & key.bit()) == 0
                ? "not among the wanted keys" : "missing"));
        }
        return longs[key.code()];
    }

    /** The string value of {@code key}, "" if absent; the key must be wanted. */
    public String getString(PropertyKey key) {
        if ((wanted & key.bit()) == 0) {
            throw new IllegalStateException("property " + key + " is not among the wanted keys");
        }
        return has(key) ? strings[key.code()] : "";
    }
}
