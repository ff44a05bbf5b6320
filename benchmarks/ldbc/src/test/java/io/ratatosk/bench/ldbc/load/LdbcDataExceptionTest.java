package io.ratatosk.bench.ldbc.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LdbcDataExceptionTest {
    private static final int MAX = LdbcDataException.MAX_QUOTED_CHARS;

    @Test
    void aValueUpToTheBoundIsQuotedWholeAndALongerOneCutWithItsLength() {
        assertEquals("''", LdbcDataException.quote(""));
        assertEquals("'" + "a".repeat(MAX) + "'", LdbcDataException.quote("a".repeat(MAX)));
        assertEquals("'" + "a".repeat(MAX) + "...' (1,000,000 characters)", LdbcDataException.quote("a".repeat(1_000_000)));
    }

    /** A character outside the BMP across the cut is left out whole: half of it would print as a broken character. */
    @Test
    void theCutSplitsNoSurrogatePair() {
        String value = "a".repeat(MAX - 1) + "\uD83D\uDE00" + "b";
        assertEquals("'" + "a".repeat(MAX - 1) + "...' (" + value.length() + " characters)", LdbcDataException.quote(value));
    }
}
