package io.ratatosk.bench.sim;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * A gzip stream's members decompressed one after another, as {@code gzip -d} reads them: zero bytes from a member's end
 * to the file's end are padding (a tape's or a block device's, {@code dd conv=sync}'s), which gzip passes over without
 * a word and commons-compress refused as "Garbage after a valid .gz stream". Anything else after a member that is no
 * member's start is still refused so.
 */
final class GzipMembers extends InputStream {
    private static final int MAGIC_0 = 0x1f;
    private static final int MAGIC_1 = 0x8b;

    /** Marks: each member's decoder rewinds it to just past the member's trailer, where the next begins. */
    private final BufferedInputStream in;
    private GzipCompressorInputStream member;

    GzipMembers(InputStream raw) throws IOException {
        this.in = new BufferedInputStream(raw);
        this.member = new GzipCompressorInputStream(in, false);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (member != null) {
            int n = member.read(buffer, off, len);
            if (n >= 0) {
                return n;
            }
            member = nextMember(); // not closed: it would close ours; its Inflater ended with the member
        }
        return -1;
    }

    /** The member after the one that ended, or null where the file ends, or only zero bytes follow. */
    private GzipCompressorInputStream nextMember() throws IOException {
        in.mark(2);
        int first = in.read();
        int second = first < 0 ? -1 : in.read();
        if (first < 0 || first == 0 && (second < 0 || second == 0 && zerosToTheEnd())) {
            return null;
        }
        if (first != MAGIC_0 || second != MAGIC_1) {
            throw new IOException("Garbage after a valid .gz stream"); // commons-compress's words, as before
        }
        in.reset();
        return new GzipCompressorInputStream(in, false);
    }

    private boolean zerosToTheEnd() throws IOException {
        int b;
        do {
            b = in.read();
        } while (b == 0);
        return b < 0;
    }

    @Override
    public void close() throws IOException {
        try {
            if (member != null) {
                member.close();
            }
        } finally {
            in.close();
        }
    }
}
