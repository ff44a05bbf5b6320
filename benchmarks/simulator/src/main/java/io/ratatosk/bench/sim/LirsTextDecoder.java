package io.ratatosk.bench.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * LIRS text traces: one integer key per line. Lines holding {@code *} are the LIRS tools' print
 * markers, and blank lines carry nothing; both are skipped (any line with a star, as other readers of the
 * format do, so that a trace whose markers carry more than the star still reads). Anything else that is
 * not an integer is an error.
 */
final class LirsTextDecoder extends KeyDecoder {
    private long line;

    LirsTextDecoder(Path file) {
        super(file);
    }

    @Override
    void decode(InputStream in, KeySink sink) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII), 1 << 16);
        String text;
        while ((text = reader.readLine()) != null) {
            line++;
            String s = text.strip();
            if (s.isEmpty() || s.indexOf('*') >= 0) {
                continue;
            }
            try {
                sink.accept(Long.parseLong(s));
            } catch (NumberFormatException e) {
                throw malformed("expected one integer key per line, found \"" + abbreviate(s) + "\"");
            }
        }
    }

    @Override
    String position() {
        return "line " + line;
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
