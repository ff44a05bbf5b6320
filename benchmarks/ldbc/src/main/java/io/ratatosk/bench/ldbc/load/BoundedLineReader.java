package io.ratatosk.bench.ldbc.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The lines of an LDBC text file (UTF-8; a line ends at {@code \n}, {@code \r} or {@code \r\n}, as
 * {@code BufferedReader.readLine}'s), each at most {@link #MAX_LINE_CHARS} characters. {@code readLine} has no bound: a
 * file without line breaks (a binary or compressed file in a CSV's place, a damaged download) was gathered into one
 * string until the heap ran out, naming neither the file nor the line.
 *
 * <p>A byte that is no UTF-8 stops the read with an error naming the file, the line and the character it stands at.
 * The bytes are decoded here, reporting such a byte, not by a reader that puts U+FFFD in its place: the lines were
 * then searched for U+FFFD, which refused a file of valid UTF-8 that holds that character itself (EF BF BD, as text
 * taken from the web does) as "not UTF-8".
 */
public final class BoundedLineReader implements AutoCloseable {
    /** Far beyond any LDBC row (the longest, a post's or comment's content, holds some hundreds to thousands). */
    public static final int MAX_LINE_CHARS = 1 << 20;

    private final InputStream in;
    private final String file;
    private final char[] buffer = new char[1 << 16];
    private final CharBuffer chars = CharBuffer.wrap(buffer);
    private final ByteBuffer bytes = ByteBuffer.allocate(1 << 16).flip(); // read mode, empty
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    /** The stream has no more bytes. */
    private boolean endOfInput;
    /** Every byte is decoded and the decoder flushed: the end of the file. */
    private boolean decoded;
    /** The decoder stopped at a byte that is no UTF-8: the characters decoded end there. */
    private boolean notUtf8;
    private int position;
    private int limit;
    /** The last line ended at a {@code \r}: a {@code \n} right after it ends no other line. */
    private boolean afterCarriageReturn;
    private final StringBuilder partial = new StringBuilder(); // a line's start, when it runs past the buffer
    private long line;

    /** @param file the file's name for messages */
    public BoundedLineReader(InputStream stream, String file) {
        this.in = stream;
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

    /**
     * Decodes the next characters into the buffer; false at the end of the file. At a byte that is no UTF-8 the
     * characters before it are delivered first, and the next fill refuses the line being read.
     */
    private boolean fill() throws IOException {
        if (notUtf8) {
            throw notUtf8();
        }
        if (decoded) {
            position = 0;
            limit = 0;
            return false;
        }
        chars.clear();
        while (chars.position() == 0) {
            CoderResult result = decoder.decode(bytes, chars, endOfInput);
            if (result.isError()) {
                notUtf8 = true;
                if (chars.position() == 0) {
                    throw notUtf8();
                }
                break;
            }
            if (result.isOverflow() || chars.position() > 0) {
                break;
            }
            if (endOfInput) {
                decoder.flush(chars); // UTF-8 holds nothing back
                decoded = true;
                break;
            }
            bytes.compact();
            int n;
            do {
                n = in.read(bytes.array(), bytes.position(), bytes.remaining());
            } while (n == 0);
            if (n < 0) {
                endOfInput = true;
            } else {
                bytes.position(bytes.position() + n);
            }
            bytes.flip();
        }
        position = 0;
        limit = chars.position();
        return limit > 0;
    }

    /** The line being read ({@link #partial} holds its characters before the byte) has a byte that is no UTF-8. */
    private LdbcDataException notUtf8() {
        return LdbcDataException.at(file, line + 1, "character " + (partial.length() + 1) + " is not UTF-8 (a byte the"
            + " LDBC files' UTF-8 has no character for: a file saved as Latin-1 or Windows-1252?)");
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
