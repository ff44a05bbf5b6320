package io.ratatosk.pagecache.internal;

/**
 * Warnings to the host's logging ({@link System.Logger}), which must never fail the call that gives them: a host's
 * log handler that threw once failed a finished close, the map of a file with a bad warm-up profile, and the
 * initialization of the flags for good. Where the log fails, the warning goes to standard error with the log's failure.
 */
public final class HostLog {
    private HostLog() {
    }

    public static void warn(String logger, String warning) {
        try {
            System.getLogger(logger).log(System.Logger.Level.WARNING, warning);
        } catch (Throwable logFailure) {
            try {
                System.err.println(logger + ": " + warning + " (the log failed: " + inWords(logFailure) + ")");
            } catch (Throwable ignored) {
                // nowhere left to say it
            }
        }
    }

    /** {@code t} as text, also where its own toString throws. */
    public static String inWords(Throwable t) {
        try {
            return String.valueOf(t);
        } catch (Throwable unprintable) {
            return t.getClass().getName() + " (its message could not be made: " + unprintable.getClass().getName() + ")";
        }
    }
}
