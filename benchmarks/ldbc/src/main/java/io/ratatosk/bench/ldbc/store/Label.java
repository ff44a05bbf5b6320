package io.ratatosk.bench.ldbc.store;

/**
 * What kind of LDBC entity a node is. Posts and comments share one id space (LDBC message ids are
 * unique across both), so the id index files them under the same {@link #idSpace}.
 */
public enum Label {
    PLACE(1, 1),
    ORGANISATION(2, 2),
    TAGCLASS(3, 3),
    TAG(4, 4),
    PERSON(5, 5),
    FORUM(6, 6),
    POST(7, 7),
    COMMENT(8, 7);

    private static final Label[] BY_CODE = new Label[16];

    static {
        for (Label l : values()) {
            BY_CODE[l.code] = l;
        }
    }

    private final int code;
    private final int idSpace;

    Label(int code, int idSpace) {
        this.code = code;
        this.idSpace = idSpace;
    }

    /** The byte stored in a node record. */
    public int code() {
        return code;
    }

    /** The id index's namespace: equal for labels whose LDBC ids must not collide. */
    public int idSpace() {
        return idSpace;
    }

    public boolean isMessage() {
        return this == POST || this == COMMENT;
    }

    /** The label stored as {@code code}, or null for a code no label has. */
    public static Label byCode(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
