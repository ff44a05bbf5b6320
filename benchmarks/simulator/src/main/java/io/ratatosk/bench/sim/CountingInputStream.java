package io.ratatosk.bench.sim;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read through it, so an error can say how far into the file it happened. Reads at
 * most {@code maxRead} bytes a call, so that over a decompressor (which fills whatever it is asked
 * for before returning) the count stays within that many bytes of where the data failed. The LDBC load counts its
 * CSV files' bytes through it too, for its progress.
 */
public final class CountingInputStream extends FilterInputStream {
    private final int maxRead;
    private long count;

    public CountingInputStream(InputStream in) {
        this(in, Integer.MAX_VALUE);
    }

    CountingInputStream(InputStream in, int maxRead) {
        super(in);
        this.maxRead = maxRead;
    }

    /** The bytes read (and skipped) through this so far. */
    public long count() {
        return count;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, Math.min(len, maxRead));
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count += skipped;
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
