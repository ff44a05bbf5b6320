package io.ratatosk.pagecache;

import java.io.IOException;

/**
 * A problem a record format found while decoding a page under an optimistic read and recorded with
 * {@link PageCursor#setCursorException(String)} instead of throwing mid-read: a length or pointer that
 * makes no sense. Thrown by {@link PageCursor#checkAndClearCursorException()} once
 * {@link PageCursor#shouldRetry()} has said the read was not torn, so it speaks of the data as stored.
 */
public class CursorException extends IOException {
    private static final long serialVersionUID = 1L;

    public CursorException(String message) {
        super(message);
    }
}
