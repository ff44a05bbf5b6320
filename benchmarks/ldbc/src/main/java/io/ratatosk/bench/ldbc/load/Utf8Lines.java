package io.ratatosk.bench.ldbc.load;

/**
 * The check that a line of an LDBC file was UTF-8: Java's UTF-8 reader puts U+FFFD for a byte that is no UTF-8
 * without a word, so a file saved as Latin-1 loaded names, and ran parameters, that no file holds.
 */
public final class Utf8Lines {
    /** What the UTF-8 decoder reads a byte that is no UTF-8 as. */
    static final char NOT_UTF8 = '\uFFFD';

    private Utf8Lines() {
    }

    /** Refuses {@code line}, line {@code lineNo} of {@code file}, if a byte of it was no UTF-8. */
    public static void check(String line, String file, long lineNo) throws LdbcDataException {
        int at = line.indexOf(NOT_UTF8);
        if (at >= 0) {
            throw LdbcDataException.at(file, lineNo, "character " + (at + 1) + " is not UTF-8 (a byte the LDBC files'"
                + " UTF-8 has no character for: a file saved as Latin-1 or Windows-1252?)");
        }
    }
}
