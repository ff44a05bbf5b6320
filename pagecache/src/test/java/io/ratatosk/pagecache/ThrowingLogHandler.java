package io.ratatosk.pagecache;

import java.util.logging.Handler;
import java.util.logging.LogRecord;

/** A host's log handler that fails on every record: what the page cache's warnings must survive. */
final class ThrowingLogHandler extends Handler {
    static final String MESSAGE = "injected: the host's log handler failed";

    @Override
    public void publish(LogRecord record) {
        throw new IllegalStateException(MESSAGE);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
