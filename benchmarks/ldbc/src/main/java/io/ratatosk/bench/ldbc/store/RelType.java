package io.ratatosk.bench.ldbc.store;

/** Relationship types, one per LDBC edge kind; the direction is the CSV's (first column to second). */
public enum RelType {
    KNOWS(1),
    HAS_CREATOR(2),
    REPLY_OF(3),
    CONTAINER_OF(4),
    HAS_MODERATOR(5),
    HAS_MEMBER(6),
    IS_LOCATED_IN(7),
    STUDY_AT(8),
    WORK_AT(9),
    IS_PART_OF(10),
    LIKES(11),
    HAS_TAG(12),
    HAS_INTEREST(13),
    HAS_TYPE(14),
    IS_SUBCLASS_OF(15);

    private static final RelType[] BY_CODE = new RelType[32];

    static {
        for (RelType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;

    RelType(int code) {
        this.code = code;
    }

    /** The byte stored in a relationship record. */
    public int code() {
        return code;
    }

    public static RelType byCode(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
