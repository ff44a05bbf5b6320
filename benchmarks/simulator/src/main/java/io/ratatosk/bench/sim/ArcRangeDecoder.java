package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * ARC traces (Megiddo and Modha): each line {@code start count ignored reqno} stands for the
 * requests {@code start, start+1, ..., start+count-1}. Only the first two fields are used; a line
 * with fewer than two fields, a start or count that is no integer, a negative count or one above {@link #MAX_COUNT},
 * and a range past {@code Long.MAX_VALUE} is an error; a count of 0 stands for no request, as in Caffeine's reader. Blank lines are skipped. The third and fourth fields are not looked at: the published traces have four, but
 * readers of this format (Caffeine's simulator among them, where the anchors come from) take any line with a start and
 * a count, and a held-out trace converted by one of them may have two or three. A fifth field is an error: no ARC line
 * has one, and a line that does is two lines run together (a newline lost) or a text trace of another format.
 */
final class ArcRangeDecoder extends TextKeyDecoder {
    /**
     * The most requests one line may stand for. The published traces' counts are 8 to 512 blocks; a corrupt line's
     * count in the billions would expand into as many keys and run out of memory after minutes, naming no line.
     */
    static final long MAX_COUNT = 1 << 20;

    /** The fields of the published traces' every line: {@code start count ignored reqno}. */
    private static final int MAX_FIELDS = 4;

    ArcRangeDecoder(Path file) {
        super(file);
    }

    @Override
    void decodeLine(String text, KeySink sink) throws IOException {
        int startFrom = skipSpaces(text, 0);
        if (startFrom == text.length()) {
            return;
        }
        int startTo = skipToken(text, startFrom);
        int countFrom = skipSpaces(text, startTo);
        int countTo = skipToken(text, countFrom);
        if (countFrom == countTo) {
            throw malformed("expected `start count ignored reqno`, found \"" + LirsTextDecoder.abbreviate(text) + "\"");
        }
        int fields = 2;
        for (int i = skipSpaces(text, countTo); i < text.length(); i = skipSpaces(text, skipToken(text, i))) {
            fields++;
        }
        if (fields > MAX_FIELDS) {
            throw malformed(fields + " fields, where an ARC line has at most four (`start count ignored reqno`): found \""
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
        if (count > 0 && start > Long.MAX_VALUE - (count - 1)) {
            // start + count overflowed, so the loop below ran no times: the line's requests were dropped silently
            throw malformed(String.format(Locale.ROOT, "start %d and count %d pass the largest key %d", start, count,
                Long.MAX_VALUE));
        }
        for (long k = start, end = start + count; k != end; k++) {
            sink.accept(k);
        }
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
}
