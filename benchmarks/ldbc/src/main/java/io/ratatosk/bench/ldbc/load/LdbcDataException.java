package io.ratatosk.bench.ldbc.load;

import java.io.IOException;

/** Bad LDBC input: a missing file, a malformed row, a dangling edge. The message names file and line. */
public final class LdbcDataException extends IOException {
    private static final long serialVersionUID = 1L;

    public LdbcDataException(String message) {
        super(message);
    }

    /** "{@code file}:{@code line}: {@code problem}". */
    public static LdbcDataException at(String file, long line, String problem) {
        return new LdbcDataException(file + ":" + line + ": " + problem);
    }
}
