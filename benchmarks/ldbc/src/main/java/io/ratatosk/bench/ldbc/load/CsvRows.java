package io.ratatosk.bench.ldbc.load;

import io.ratatosk.bench.sim.CountingInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Reads one LDBC CSV file row by row: {@code |} separated, no quoting (LDBC's values never hold
 * {@code |} or a line break), a header first, UTF-8. Checks the header, every row's column count and that
 * every byte is UTF-8, and parses numbers, each failure naming the file and line; a line is at most
 * {@link BoundedLineReader#MAX_LINE_CHARS} characters.
 */
final class CsvRows implements AutoCloseable {
    /** The UTF-8 byte order mark, as a character. */
    static final String BOM = "\uFEFF";

    private final BoundedLineReader in;
    /** The file's bytes the reader took: counted as characters and one break a line, UTF-8 names and CRLF fell short. */
    private final CountingInputStream counted;
    private final String file;
    private final List<String> header;
    private final String[] fields;
    private long line;

    CsvRows(InputStream stream, String file, List<String> expectedHeader) throws IOException {
        this.counted = new CountingInputStream(stream);
        this.in = new BoundedLineReader(counted, file);
        this.file = file;
        this.header = expectedHeader;
        this.fields = new String[expectedHeader.size()];
        String first = readLine();
        if (first != null && first.startsWith(BOM)) {
            // Left by editors that save UTF-8 with a mark: refused, the header looked the same as the one expected.
            first = first.substring(1);
        }
        if (first == null) {
            throw LdbcDataException.at(file, 1, "empty file; expected the header " + String.join("|", expectedHeader));
        }
        if (!first.equals(String.join("|", expectedHeader))) {
            throw LdbcDataException.at(file, 1, "header is " + LdbcDataException.quote(first) + " but the LDBC layout has '"
                + String.join("|", expectedHeader) + "'");
        }
    }

    private String readLine() throws IOException {
        String s = in.readLine();
        if (s != null) {
            line = in.lineNumber();
        }
        return s;
    }

    /** Moves to the next non-empty row; false at the end. Its fields are then {@link #field}. */
    boolean next() throws IOException {
        String s;
        do {
            s = readLine();
            if (s == null) {
                return false;
            }
        } while (s.isEmpty());
        int count = 0;
        int from = 0;
        while (true) {
            int bar = s.indexOf('|', from);
            String value = bar < 0 ? s.substring(from) : s.substring(from, bar);
            if (count < fields.length) {
                fields[count] = value;
            }
            count++;
            if (bar < 0) {
                break;
            }
            from = bar + 1;
        }
        if (count != fields.length) {
            throw error("expected " + fields.length + " columns (" + String.join("|", header) + ") but found " + count);
        }
        return true;
    }

    String field(int column) {
        return fields[column];
    }

    long number(int column) throws LdbcDataException {
        String v = fields[column];
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw error("column " + header.get(column) + ": " + LdbcDataException.quote(v) + " is not a number");
        }
    }

    LdbcDataException error(String problem) {
        return LdbcDataException.at(file, line, problem);
    }

    /** The current row's line number (1 is the header). */
    long line() {
        return line;
    }

    /** The file's bytes read so far, for progress: up to the reader's buffer ahead of the row, every byte at the end. */
    long bytesRead() {
        return counted.count();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /**
     * Rows in a stream: its line breaks, minus the header; an upper bound on its entities. A line break is what
     * {@link BoundedLineReader#readLine} ends a line at ({@code \n}, {@code \r\n} or a lone {@code \r}): counted by
     * {@code \n} alone, a file with {@code \r} line ends held no rows, the id index was sized for none, and the load
     * failed with "the id index is full" and a stack trace though every row read.
     */
    static long countRows(InputStream stream) throws IOException {
        long lines = 0;
        byte[] buf = new byte[1 << 16];
        int n;
        byte last = '\n';
        try (stream) {
            while ((n = stream.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    byte b = buf[i];
                    if (b == '\r' || b == '\n' && last != '\r') {
                        lines++;
                    }
                    last = b;
                }
            }
        }
        boolean endsWithBreak = last == '\n' || last == '\r';
        return Math.max(0, lines + (endsWithBreak ? 0 : 1) - 1);
    }
}
