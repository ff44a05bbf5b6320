package io.ratatosk.bench.ldbc.store;

import java.util.Arrays;

/** The properties of one node or relationship about to be written, in chain order. Reusable. */
public final class PropertyBatch {
    private PropertyKey[] keys = new PropertyKey[16];
    private long[] longs = new long[16];
    private String[] strings = new String[16];
    private int size;

    public PropertyBatch clear() {
        size = 0;
        return this;
    }

    public PropertyBatch addLong(PropertyKey key, long value) {
        if (!key.isNumeric()) {
            throw new IllegalArgumentException(key + " holds strings, not numbers");
        }
        grow();
        keys[size] = key;
        longs[size] = value;
        strings[size] = null;
        size++;
        return this;
    }

    /** Adds a string; an empty one is not stored, and reads back as "". */
    public PropertyBatch addString(PropertyKey key, String value) {
        if (key.isNumeric()) {
            throw new IllegalArgumentException(key + " holds numbers, not strings");
        }
        if (value.isEmpty()) {
            return this;
        }
        grow();
        keys[size] = key;
        strings[size] = value;
        size++;
        return this;
    }

    private void grow() {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            longs = Arrays.copyOf(longs, size * 2);
            strings = Arrays.copyOf(strings, size * 2);
        }
    }

    int size() {
        return size;
    }

    PropertyKey key(int i) {
        return keys[i];
    }

    long longValue(int i) {
        return longs[i];
    }

    String stringValue(int i) {
        return strings[i];
    }

    /** The long value of {@code key} if present, else {@code missing}. */
    long find(PropertyKey key, long missing) {
        for (int i = 0; i < size; i++) {
            if (keys[i] == key) {
                return longs[i];
            }
        }
        return missing;
    }
}
