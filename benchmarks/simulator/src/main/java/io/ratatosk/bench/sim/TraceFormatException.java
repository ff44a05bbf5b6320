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

    private TraceFormatException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** This failure, its message ending in {@code note} (what else was tried, and why). */
    TraceFormatException noting(String note) {
        TraceFormatException noted = new TraceFormatException(file, getMessage() + " " + note, getCause());
        noted.setStackTrace(getStackTrace());
        for (Throwable s : getSuppressed()) {
            noted.addSuppressed(s);
        }
        return noted;
    }

    public Path file() {
        return file;
    }
}
