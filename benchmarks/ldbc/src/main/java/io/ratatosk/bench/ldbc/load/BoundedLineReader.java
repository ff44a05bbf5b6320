package io.ratatosk.bench.ldbc.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The lines of an LDBC text file (UTF-8; a line ends at {@code \n}, {@code \r} or {@code \r\n}, as
 * {@code BufferedReader.readLine}'s), each at most {@link #MAX_LINE_CHARS} characters. {@code readLine} has no bound: a
 * file without line breaks (a binary or compressed file in a CSV's place, a damaged download) was gathered into one
 * string until the heap ran out, naming neither the file nor the line.
 */
public final class BoundedLineReader implements AutoCloseable {
    /** Far beyond any LDBC row (the longest, a post's or comment's content, holds some hundreds to thousands). */
    public static final int MAX_LINE_CHARS = 1 << 20;

    private final Reader in;
    private final String file;
    private final char[] buffer = new char[1 << 16];
    private int position;
    private int limit;
    /** The last line ended at a {@code \r}: a {@code \n} right after it ends no other line. */
    private boolean afterCarriageReturn;
    private final StringBuilder partial = new StringBuilder(); // a line's start, when it runs past the buffer
    private long line;

    /** @param file the file's name for messages */
    public BoundedLineReader(InputStream stream, String file) {
        this.in = new InputStreamReader(stream, StandardCharsets.UTF_8);
        this.file = file;
    }

    /** The next line without its end, or null at the end of the file. */
    public String readLine() throws IOException {
        partial.setLength(0);
        while (true) {
            if (position == limit && !fill()) {
                if (partial.isEmpty()) {
                    return null;
                }
                line++;
                return partial.toString(); // the last line, without an end
            }
            if (afterCarriageReturn) {
                afterCarriageReturn = false;
                if (buffer[position] == '\n') {
                    position++; // the second half of \r\n
                    continue;
                }
            }
            int start = position;
            while (position < limit) {
                char c = buffer[position];
                if (c == '\n' || c == '\r') {
                    line++;
                    checkLength(partial.length() + position - start);
                    String text = partial.isEmpty() ? new String(buffer, start, position - start)
                        : partial.append(buffer, start, position - start).toString();
                    position++;
                    afterCarriageReturn = c == '\r';
                    return text;
                }
                position++;
            }
            partial.append(buffer, start, limit - start);
            if (partial.length() > MAX_LINE_CHARS) {
                line++;
                checkLength(partial.length());
            }
        }
    }

    /** The number of the line {@link #readLine} returned last, from 1. */
    public long lineNumber() {
        return line;
    }

    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(buffer, 0, buffer.length);
        } while (n == 0);
        position = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }

    private void checkLength(int length) throws LdbcDataException {
        if (length > MAX_LINE_CHARS) {
            throw LdbcDataException.at(file, line, String.format(Locale.ROOT, "a line of more than %,d characters, far"
                + " more than any LDBC row holds: not an LDBC text file (a binary or compressed one?), or a damaged one",
                MAX_LINE_CHARS));
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
