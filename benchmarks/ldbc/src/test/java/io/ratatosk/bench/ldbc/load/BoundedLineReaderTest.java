package io.ratatosk.bench.ldbc.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class BoundedLineReaderTest {
    private static final String TOO_LONG = String.format(Locale.ROOT, "a line of more than %,d characters",
        BoundedLineReader.MAX_LINE_CHARS);

    @Test
    void linesEndAtLineFeedCarriageReturnOrBothAcrossTheBuffer() throws IOException {
        // Lines on each side of every place the reader's buffer of 64k characters could end, ended three ways,
        // with blank lines and characters of two and three UTF-8 bytes among them.
        StringBuilder text = new StringBuilder();
        List<String> lines = new ArrayList<>();
        String[] ends = {"\n", "\r", "\r\n"};
        for (int i = 0; text.length() < 3 * 65536; i++) {
            String line = i % 7 == 0 ? "" : i + "|Jos\u00e9|\u20ac" + "x".repeat(i % 13);
            text.append(line).append(ends[i % 3]);
            lines.add(line);
        }
        text.append("last|without an end");
        lines.add("last|without an end");
        assertEquals(lines, readAll(text.toString()));
        assertEquals(List.of(), readAll(""));
        assertEquals(List.of("", ""), readAll("\r\n\n"));
        assertEquals(List.of("a", ""), readAll("a\r\r"));
    }

    /** The longest line taken is read whole, and one character more is refused naming the file and its line. */
    @Test
    void aLineOfTheBoundIsReadAndALongerOneIsRefusedNamingTheFileAndTheLine() throws IOException {
        String longest = "7".repeat(BoundedLineReader.MAX_LINE_CHARS);
        assertEquals(List.of("id", longest, "8"), readAll("id\n" + longest + "\r\n8\n"));
        assertEquals(List.of("id", longest), readAll("id\n" + longest));
        for (String after : new String[] {"\n", "", "\r\n9\n"}) {
            try (BoundedLineReader in = reader("id\r\n" + longest + "7" + after)) {
                assertEquals("id", in.readLine());
                LdbcDataException e = assertThrows(LdbcDataException.class, in::readLine);
                assertTrue(e.getMessage().startsWith("f.csv:2: " + TOO_LONG), e.getMessage());
            }
        }
    }

    /**
     * A CSV file without a line break (a binary or compressed file in a CSV's place) is refused having read little more
     * than the bound: readLine gathered the whole 32 MiB into one string (a larger file ran the heap out, naming
     * nothing) and then refused it as a header.
     */
    @Test
    void aCsvFileWithoutALineBreakIsRefusedAfterLittleMoreThanTheBound() throws IOException {
        long[] read = new long[1];
        InputStream noBreak = new InputStream() {
            private long left = 32 << 20;

            @Override
            public int read() {
                return read(new byte[1], 0, 1) < 0 ? -1 : 'x';
            }

            @Override
            public int read(byte[] b, int off, int len) {
                int n = (int) Math.min(len, left);
                Arrays.fill(b, off, off + n, (byte) 'x');
                left -= n;
                read[0] += n;
                return n == 0 && len > 0 ? -1 : n;
            }
        };
        LdbcDataException e = assertThrows(LdbcDataException.class, () -> new CsvRows(noBreak, "f.csv", List.of("id")));
        assertTrue(e.getMessage().startsWith("f.csv:1: " + TOO_LONG), e.getMessage());
        assertTrue(read[0] <= 2L * BoundedLineReader.MAX_LINE_CHARS, "read " + read[0] + " bytes");
    }

    /**
     * U+FFFD written as UTF-8 is read as itself; a byte that is no UTF-8 is refused naming its line and character, the
     * lines before it read, wherever it falls relative to the reader's buffer: the reader put U+FFFD for such a byte and
     * the callers refused every U+FFFD, a valid one too.
     */
    @Test
    void aByteThatIsNoUtf8IsRefusedAtItsLineAndTheReplacementCharacterIsRead() throws IOException {
        assertEquals(List.of("a\uFFFDb", "\uFFFD"), readAll("a\uFFFDb\r\n\uFFFD"));
        for (int before : new int[] {0, 5, 65535, 65536, 65537, 3 * 65536 - 1}) {
            String first = "x".repeat(before);
            byte[] good = (first + "\nab").getBytes(StandardCharsets.UTF_8);
            byte[] text = Arrays.copyOf(good, good.length + 3);
            text[good.length] = (byte) 0xe9; // Latin-1's \u00e9
            text[good.length + 1] = 'c';
            text[good.length + 2] = '\n';
            try (BoundedLineReader in = new BoundedLineReader(new ByteArrayInputStream(text), "f.csv")) {
                assertEquals(first, in.readLine());
                LdbcDataException e = assertThrows(LdbcDataException.class, in::readLine);
                assertTrue(e.getMessage().startsWith("f.csv:2: character 3 is not UTF-8"), e.getMessage());
            }
        }
    }

    private static List<String> readAll(String text) throws IOException {
        List<String> lines = new ArrayList<>();
        try (BoundedLineReader in = reader(text)) {
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
                assertEquals(lines.size(), in.lineNumber());
            }
            assertNull(in.readLine());
        }
        return lines;
    }

    private static BoundedLineReader reader(String text) {
        return new BoundedLineReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "f.csv");
    }
}
