package io.ratatosk.bench.ldbc.store;

/**
 * Property keys of nodes and relationships, with the kind of value each holds. Numbers (ids, dates
 * in epoch milliseconds, years, lengths) are longs; everything else is a string as in the CSV.
 */
public enum PropertyKey {
    ID(1, true),
    CREATION_DATE(2, true),
    FIRST_NAME(3, false),
    LAST_NAME(4, false),
    GENDER(5, false),
    BIRTHDAY(6, true),
    LOCATION_IP(7, false),
    BROWSER_USED(8, false),
    LANGUAGE(9, false),
    EMAIL(10, false),
    IMAGE_FILE(11, false),
    CONTENT(12, false),
    LENGTH(13, true),
    TITLE(14, false),
    NAME(15, false),
    URL(16, false),
    TYPE(17, false),
    JOIN_DATE(18, true),
    CLASS_YEAR(19, true),
    WORK_FROM(20, true);

    /** Codes are below this, so a set of keys fits an int mask. */
    static final int CODE_LIMIT = 32;
    private static final PropertyKey[] BY_CODE = new PropertyKey[CODE_LIMIT];

    static {
        for (PropertyKey k : values()) {
            BY_CODE[k.code] = k;
        }
    }

    private final int code;
    private final boolean numeric;

    PropertyKey(int code, boolean numeric) {
        this.code = code;
        this.numeric = numeric;
    }

    /** The byte stored in a property record. */
    public int code() {
        return code;
    }

    /** The bit of this key in a key mask. */
    public int bit() {
        return 1 << code;
    }

    /** True for long values, false for strings. */
    public boolean isNumeric() {
        return numeric;
    }

    public static PropertyKey byCode(int code) {
        return code > 0 && code < CODE_LIMIT ? BY_CODE[code] : null;
    }

    /** The mask of the given keys. */
    public static int mask(PropertyKey... keys) {
        int m = 0;
        for (PropertyKey k : keys) {
            m |= k.bit();
        }
        return m;
    }
}
