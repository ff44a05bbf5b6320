package io.ratatosk.bench.sim;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * A file's compressed streams (gzip members, bzip2 streams) decompressed one after another, as {@code gzip -d} and
 * {@code bzip2 -d} read them: zero bytes from a stream's end to the file's end are padding (a tape's or a block
 * device's, {@code dd conv=sync}'s), which both tools pass over and commons-compress refused as "Garbage after a valid
 * .gz stream" ("... BZip2 stream"). Anything else after a stream that is no stream's start is still refused so.
 */
final class ConcatenatedStreams extends InputStream {
    /** Opens the one stream that starts where {@code in} is, reading no byte past its end. */
    private interface Decoder {
        InputStream open(InputStream in) throws IOException;
    }

    /** Marks: each stream's decoder stops just past the stream's end (gzip's rewinds there), where the next begins. */
    private final BufferedInputStream in;
    private final int[] magic;
    private final Decoder decoder;
    private final String garbage;
    private InputStream stream;
    /** {@link #read()}'s byte, kept: a new array per byte read allocated for every byte of a reader that reads so. */
    private final byte[] one = new byte[1];

    private ConcatenatedStreams(InputStream raw, int[] magic, Decoder decoder, String garbage) throws IOException {
        this.in = new BufferedInputStream(raw);
        this.magic = magic;
        this.decoder = decoder;
        this.garbage = garbage;
        this.stream = decoder.open(in);
    }

    /** gzip's members: each decoder rewinds the marked stream to just past its member's trailer. */
    static InputStream gzip(InputStream raw) throws IOException {
        return new ConcatenatedStreams(raw, new int[] {0x1f, 0x8b}, in -> new GzipCompressorInputStream(in, false),
            "Garbage after a valid .gz stream"); // commons-compress's words, as before
    }

    /** bzip2's streams ("BZh"): each decoder reads its bits a byte at a time, to the byte its end-of-stream CRC ends in. */
    static InputStream bzip2(InputStream raw) throws IOException {
        return new ConcatenatedStreams(raw, new int[] {'B', 'Z', 'h'}, in -> new BZip2CompressorInputStream(in, false),
            "Garbage after a valid BZip2 stream");
    }

    @Override
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (stream != null) {
            int n = stream.read(buffer, off, len);
            if (n >= 0) {
                return n;
            }
            stream = nextStream(); // not closed: it would close ours; its decoder let go of its state at its end
        }
        return -1;
    }

    /** The stream after the one that ended, or null where the file ends, or only zero bytes follow. */
    private InputStream nextStream() throws IOException {
        in.mark(magic.length);
        int first = in.read();
        if (first < 0 || first == 0 && zerosToTheEnd()) {
            return null;
        }
        int b = first;
        for (int i = 0; i < magic.length; i++) {
            if (i > 0) {
                b = in.read();
            }
            if (b != magic[i]) {
                throw new IOException(garbage);
            }
        }
        in.reset();
        return decoder.open(in);
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
            if (stream != null) {
                stream.close();
            }
        } finally {
            in.close();
        }
    }
}
