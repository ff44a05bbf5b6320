package io.ratatosk.bench.sim;

import io.ratatosk.core.PageKey;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Binary traces: big-endian keys of 4 bytes (unsigned) or 8 bytes, back to back, nothing else. A
 * stream that ends inside a key is an error, as is a page trace's key that is no {@link PageKey}: 0 (it means
 * "unbound"), or one whose file part (the top 16 bits, file id + 1) is 0.
 */
final class BigEndianKeyDecoder extends KeyDecoder {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final int width;
    private final boolean pageKeys;
    private long offset;

    /**
     * @param width    4 or 8 bytes per key
     * @param pageKeys true if the keys are {@link io.ratatosk.core.PageKey}s, which are never 0
     */
    BigEndianKeyDecoder(Path file, int width, boolean pageKeys) {
        super(file);
        if (width != 4 && width != 8) {
            throw new IllegalArgumentException("key width must be 4 or 8 bytes: width=" + width);
        }
        this.width = width;
        this.pageKeys = pageKeys;
    }

    @Override
    void decode(InputStream in, KeySink sink) throws IOException {
        byte[] buf = new byte[1 << 16];
        int fill = 0;
        int n;
        while ((n = in.read(buf, fill, buf.length - fill)) != -1) {
            if (offset == 0 && fill == 0 && looksLikeText(buf, n)) {
                throw malformed("the data is text (digits, spaces and line breaks), not binary keys of " + width
                    + " bytes: a text trace? --format lirs or arc reads those");
            }
            fill += n;
            int whole = fill - fill % width;
            for (int i = 0; i < whole; i += width) {
                long key = width == 4 ? Integer.toUnsignedLong((int) INT.get(buf, i)) : (long) LONG.get(buf, i);
                if (pageKeys && key == 0) {
                    throw malformed("page key 0 is not a page (0 means unbound)");
                }
                if (pageKeys && PageKey.fileId(key) < 0) {
                    // No page's key has 0 in its file part (file id + 1): the keys of another format, or damage
                    throw malformed(String.format(Locale.ROOT, "page key 0x%016x names no file (its top %d bits, file id + 1,"
                        + " are 0): not a page trace? --format names another", key, PageKey.FILE_ID_BITS));
                }
                sink.accept(key);
                offset += width;
            }
            System.arraycopy(buf, whole, buf, 0, fill - whole);
            fill -= whole;
        }
        if (fill != 0) {
            throw malformed("the data ends inside a key: a partial record of " + fill + " bytes, keys are "
                + width + " bytes");
        }
    }

    /**
     * Whether the first {@code n} bytes are a text trace's: only digits, signs, stars, spaces and line breaks, with a line
     * break.
     * Binary keys are small numbers with zero bytes in front, so they would have to be chosen to look like that; a
     * text file read as keys gave a trace of plausible-looking nonsense, without a word.
     */
    private static boolean looksLikeText(byte[] buf, int n) {
        boolean lineBreak = false;
        for (int i = 0; i < n; i++) {
            byte b = buf[i];
            lineBreak |= b == '\n';
            // '+' too: the LIRS reader takes +5 as 5, and a trace of such keys was read as keys of nonsense
            if (!(b >= '0' && b <= '9' || b == '\n' || b == '\r' || b == ' ' || b == '\t' || b == '*' || b == '-'
                || b == '+')) {
                return false;
            }
        }
        return lineBreak && n >= 8;
    }

    @Override
    String position() {
        return "decompressed byte " + offset;
    }
}
