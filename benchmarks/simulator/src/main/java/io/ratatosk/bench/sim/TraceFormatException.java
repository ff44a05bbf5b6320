package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.Path;

/** A trace that cannot be read to its end: truncated, corrupt or not in the expected format. */
public final class TraceFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final Path file;

    public TraceFormatException(Path file, String where, String problem, Throwable cause) {
        super(file + ": " + where + ": " + problem, cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
