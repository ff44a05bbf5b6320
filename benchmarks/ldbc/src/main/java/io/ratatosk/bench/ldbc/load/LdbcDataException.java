package io.ratatosk.bench.ldbc.load;

import java.io.IOException;
import java.util.Locale;

/** Bad LDBC input: a missing file, a malformed row, a dangling edge. The message names file and line. */
public final class LdbcDataException extends IOException {
    private static final long serialVersionUID = 1L;

    public LdbcDataException(String message) {
        super(message);
    }

    /** The most characters of a value a message quotes: a line may hold a mebibyte of them. */
    static final int MAX_QUOTED_CHARS = 100;

    /**
     * {@code value} in quotes for a message, cut after {@link #MAX_QUOTED_CHARS} characters with its length said: a
     * message that quoted a whole line of a file that is no LDBC file (a line of JSON, a file without line breaks) ran
     * to as long as the line.
     */
    public static String quote(String value) {
        if (value.length() <= MAX_QUOTED_CHARS) {
            return "'" + value + "'";
        }
        int cut = Character.isHighSurrogate(value.charAt(MAX_QUOTED_CHARS - 1)) ? MAX_QUOTED_CHARS - 1 : MAX_QUOTED_CHARS;
        return String.format(Locale.ROOT, "'%s...' (%,d characters)", value.substring(0, cut), value.length());
    }

    /** "{@code file}:{@code line}: {@code problem}". */
    public static LdbcDataException at(String file, long line, String problem) {
        return new LdbcDataException(file + ":" + line + ": " + problem);
    }
}
