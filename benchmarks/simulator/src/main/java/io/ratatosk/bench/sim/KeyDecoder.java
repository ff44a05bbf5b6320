package io.ratatosk.bench.sim;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Turns a trace's decompressed bytes into raw keys. One instance reads one file, and knows where it
 * stands ({@link #position()}), so that a malformed record is reported at its line or byte offset.
 */
abstract class KeyDecoder {
    protected final Path file;

    KeyDecoder(Path file) {
        this.file = file;
    }

    /** Reads {@code in} to its end; a malformed record is a {@link TraceFormatException}. */
    abstract void decode(InputStream in, KeySink sink) throws IOException;

    /** Where decoding stands, e.g. "line 17" or "decompressed byte 4096". */
    abstract String position();

    protected TraceFormatException malformed(String problem) {
        return new TraceFormatException(file, position(), problem, null);
    }
}
