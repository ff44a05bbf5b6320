package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.Path;

/**
 * LIRS text traces: one integer key per line. Lines holding {@code *} are the LIRS tools' print
 * markers, and blank lines carry nothing; both are skipped (any line with a star, as other readers of the
 * format do, so that a trace whose markers carry more than the star still reads). Anything else that is
 * not an integer is an error. A key is any 64-bit integer, signed or not: the published traces' are block numbers,
 * but a key is only a name, mapped to a dense id (docs/simulator.md).
 */
final class LirsTextDecoder extends TextKeyDecoder {
    LirsTextDecoder(Path file) {
        super(file);
    }

    @Override
    void decodeLine(String text, KeySink sink) throws IOException {
        String s = text.strip();
        if (s.isEmpty() || s.indexOf('*') >= 0) {
            return;
        }
        try {
            sink.accept(Long.parseLong(s));
        } catch (NumberFormatException e) {
            throw malformed("expected one integer key per line, found \"" + abbreviate(s) + "\""
                + (lineNumber() == 1 && s.startsWith("\uFFFD\uFFFD\uFFFD") ? " (a UTF-8 byte order mark?)" : ""));
        }
    }

    /**
     * At most 40 characters of {@code s} for a message, control characters and bytes that are no ASCII written as
     * escapes: printed raw, a NUL or ^Z showed as {@code found ""}, and a byte order mark as three unknown signs.
     */
    static String abbreviate(String s) {
        String cut = s.length() <= 40 ? s : s.substring(0, 40);
        StringBuilder shown = new StringBuilder();
        cut.chars().forEach(c -> {
            if (c == '\uFFFD') {
                shown.append("\\x??"); // a byte above 127, which the ASCII decoder replaced
            } else if (c < 0x20 || c == 0x7f) {
                shown.append(String.format(java.util.Locale.ROOT, "\\x%02x", c));
            } else {
                shown.append((char) c);
            }
        });
        return cut.length() < s.length() ? shown + "..." : shown.toString();
    }
}
