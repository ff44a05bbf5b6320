package io.ratatosk.bench.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Text traces, read line by line (a line ends at {@code \n}, {@code \r} or {@code \r\n}, as {@code readLine}'s), each
 * line at most {@link #MAX_LINE_CHARS} characters. {@code BufferedReader.readLine} has no bound: a file without line
 * breaks (a binary trace read as text, a damaged one) was gathered into one string until the heap ran out, naming
 * neither the file nor the line.
 */
abstract class TextKeyDecoder extends KeyDecoder {
    /** Far beyond any line of the text formats (LIRS: one key; ARC: four numbers), and small beside any heap. */
    static final int MAX_LINE_CHARS = 1 << 16;

    private long line;

    TextKeyDecoder(Path file) {
        super(file);
    }

    /** Reads one line's keys into {@code sink}; a malformed line is a {@link TraceFormatException}. */
    abstract void decodeLine(String text, KeySink sink) throws IOException;

    /** The number of the line being read, from 1. */
    final long lineNumber() {
        return line;
    }

    @Override
    final void decode(InputStream in, KeySink sink) throws IOException {
        Reader reader = new InputStreamReader(in, StandardCharsets.US_ASCII);
        char[] chunk = new char[1 << 16];
        StringBuilder partial = new StringBuilder(); // the start of a line that runs past the chunk
        boolean afterCarriageReturn = false;
        int n;
        while ((n = reader.read(chunk, 0, chunk.length)) != -1) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                char c = chunk[i];
                if (afterCarriageReturn) {
                    afterCarriageReturn = false;
                    if (c == '\n') {
                        start = i + 1; // the second half of \r\n
                        continue;
                    }
                }
                if (c == '\n' || c == '\r') {
                    String text;
                    if (partial.isEmpty()) {
                        text = new String(chunk, start, i - start);
                    } else {
                        text = partial.append(chunk, start, i - start).toString();
                        partial.setLength(0);
                    }
                    line++;
                    checkLength(text.length());
                    decodeLine(text, sink);
                    start = i + 1;
                    afterCarriageReturn = c == '\r';
                }
            }
            partial.append(chunk, start, n - start);
            if (partial.length() > MAX_LINE_CHARS) {
                line++;
                checkLength(partial.length());
            }
        }
        if (!partial.isEmpty()) {
            line++;
            decodeLine(partial.toString(), sink);
        }
    }

    private void checkLength(int length) throws TraceFormatException {
        if (length > MAX_LINE_CHARS) {
            throw malformed(String.format(Locale.ROOT, "a line of more than %,d characters, where a line of this format"
                + " holds a few numbers: not a text trace (a binary one? --format names its format), or a damaged one",
                MAX_LINE_CHARS));
        }
    }

    @Override
    final String position() {
        return "line " + line;
    }
}
