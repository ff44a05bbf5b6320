package io.ratatosk.bench.sim;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * ARC traces (Megiddo and Modha): each line {@code start count ignored reqno} stands for the
 * requests {@code start, start+1, ..., start+count-1}. Only the first two fields are used; a line
 * without four fields, with a start or count that is no integer, a negative count or one above {@link #MAX_COUNT} is
 * an error. Blank lines are skipped.
 */
final class ArcRangeDecoder extends KeyDecoder {
    /**
     * The most requests one line may stand for. The published traces' counts are 8 to 512 blocks; a corrupt line's
     * count in the billions would expand into as many keys and run out of memory after minutes, naming no line.
     */
    static final long MAX_COUNT = 1 << 20;

    private long line;

    ArcRangeDecoder(Path file) {
        super(file);
    }

    @Override
    void decode(InputStream in, KeySink sink) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII), 1 << 16);
        String text;
        while ((text = reader.readLine()) != null) {
            line++;
            int startFrom = skipSpaces(text, 0);
            if (startFrom == text.length()) {
                continue;
            }
            int startTo = skipToken(text, startFrom);
            int countFrom = skipSpaces(text, startTo);
            int countTo = skipToken(text, countFrom);
            int fields = countFields(text, startFrom);
            if (fields != 4) { // every line of the published traces has four: fewer or more is not this format
                throw malformed("expected 4 fields `start count ignored reqno`, found " + fields + ": \""
                    + LirsTextDecoder.abbreviate(text) + "\"");
            }
            long start;
            long count;
            try {
                start = Long.parseLong(text, startFrom, startTo, 10);
                count = Long.parseLong(text, countFrom, countTo, 10);
            } catch (NumberFormatException e) {
                throw malformed("expected `start count ignored reqno` with integer start and count, found \""
                    + LirsTextDecoder.abbreviate(text) + "\"");
            }
            if (count < 0) {
                throw malformed("negative count " + count);
            }
            if (count > MAX_COUNT) {
                throw malformed(String.format(Locale.ROOT, "count %d is above %,d, the most one line may stand for"
                    + " (ARC traces' counts are 8 to 512 blocks)", count, MAX_COUNT));
            }
            for (long k = start, end = start + count; k < end; k++) {
                sink.accept(k);
            }
        }
    }

    private static int countFields(String s, int from) {
        int fields = 0;
        for (int i = skipSpaces(s, from); i < s.length(); i = skipSpaces(s, skipToken(s, i))) {
            fields++;
        }
        return fields;
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int skipToken(String s, int i) {
        while (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    @Override
    String position() {
        return "line " + line;
    }
}
