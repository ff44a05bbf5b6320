package io.ratatosk.pagecache.internal;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.agrona.UnsafeAccess;
import sun.misc.Unsafe;

/**
 * File channels that a thread interrupt does not close. A {@link FileChannel} is an interruptible channel:
 * interrupting a thread that is in (or enters) one of its IO calls closes the channel for every thread,
 * so one application interrupt would fail the page cache's IO on that file everywhere. The JDK's own
 * implementation can be told to ignore interrupts ({@code sun.nio.ch.FileChannelImpl.setUninterruptible()},
 * what the JDK uses for its own internal files), but that method is not exported. Its effect is one
 * private boolean field, {@code uninterruptible}; this class sets that field with {@code Unsafe}, which
 * needs no {@code --add-exports} (finding a field by reflection needs no access either).
 * <p>
 * On such a channel an interrupted thread's IO simply completes, and its interrupt status stays set for
 * the application to see. Whether this works on the running JDK is checked once, on the first channel
 * opened: mark a second channel on the same file, interrupt the current thread, read, and see the
 * channel still open, the read done and the interrupt status kept. If the field is missing or the check
 * fails, channels are returned as the JDK opened them and FileSwapper falls back to reopening its file.
 */
public final class UninterruptibleFileChannels {
    private static final Unsafe UNSAFE = UnsafeAccess.UNSAFE;
    /** {@code sun.nio.ch.FileChannelImpl}, or null if this JDK has none with the field. */
    private static final Class<?> IMPL;
    private static final long UNINTERRUPTIBLE_FIELD;
    private static final String LOOKUP_FAILURE;
    private static final String NOT_CHECKED = "not checked yet: no file channel has been opened";

    /** Null once the self-check passed; why not otherwise. Guarded by the class. */
    private static String unavailableReason = NOT_CHECKED;
    private static volatile boolean checked;

    static {
        Class<?> impl = null;
        long offset = -1;
        String failure = null;
        try {
            impl = Class.forName("sun.nio.ch.FileChannelImpl");
            Field field = impl.getDeclaredField("uninterruptible");
            if (field.getType() != boolean.class) {
                failure = "sun.nio.ch.FileChannelImpl.uninterruptible is a " + field.getType() + ", not a boolean";
            } else {
                offset = UNSAFE.objectFieldOffset(field);
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            failure = "this JDK has no sun.nio.ch.FileChannelImpl.uninterruptible field to set: " + e;
        }
        IMPL = failure == null ? impl : null;
        UNINTERRUPTIBLE_FIELD = offset;
        LOOKUP_FAILURE = failure;
    }

    private UninterruptibleFileChannels() {
    }

    /**
     * Opens {@code path} for reading and writing (creating it if {@code create}), made uninterruptible
     * where this JDK allows it; the JDK's ordinary channel otherwise.
     */
    public static FileChannel open(Path path, boolean create) throws IOException {
        return open(path, create, new OpenOption[0]);
    }

    /** As {@link #open(Path, boolean)}, with {@code extra} options besides READ, WRITE and CREATE (O_DIRECT, say). */
    public static FileChannel open(Path path, boolean create, OpenOption... extra) throws IOException {
        FileChannel channel = FileChannel.open(path, DirectIo.withExtra(FileChannelOpener.readWrite(create), extra));
        try {
            if (checkOnce(path)) {
                makeUninterruptible(channel);
            }
        } catch (RuntimeException | Error e) {
            channel.close();
            throw e;
        }
        return channel;
    }

    /** Whether interrupts leave {@code channel} open: the JDK's own channel with the field set. */
    public static boolean isUninterruptible(FileChannel channel) {
        return IMPL != null && channel.getClass() == IMPL && UNSAFE.getBooleanVolatile(channel, UNINTERRUPTIBLE_FIELD);
    }

    /**
     * Null if channels are made uninterruptible on this JDK; otherwise why not (or that no channel has
     * been opened yet to check it on).
     */
    public static synchronized String unavailableReason() {
        return LOOKUP_FAILURE != null ? LOOKUP_FAILURE : unavailableReason;
    }

    private static void makeUninterruptible(FileChannel channel) {
        if (channel.getClass() == IMPL) {
            UNSAFE.putBooleanVolatile(channel, UNINTERRUPTIBLE_FIELD, true);
        }
    }

    /** True if the trick works on this JDK; runs the self-check on {@code path} the first time. */
    private static boolean checkOnce(Path path) {
        if (checked) {
            return unavailableReason == null;
        }
        synchronized (UninterruptibleFileChannels.class) {
            if (!checked) {
                if (LOOKUP_FAILURE != null) {
                    unavailableReason = LOOKUP_FAILURE;
                    checked = true;
                } else {
                    String reason = selfCheck(path);
                    if (reason != NOT_CHECKED) { // a file we could not open for the probe says nothing: try the next one
                        unavailableReason = reason;
                        checked = true;
                    }
                }
            }
            return checked && unavailableReason == null;
        }
    }

    /**
     * Marks a second channel on {@code path}, reads through it with the current thread interrupted, and
     * returns null if the read worked, the channel stayed open and the interrupt status was kept; the
     * reason otherwise, or {@link #NOT_CHECKED} if the probe channel could not be opened. The caller's
     * own interrupt status is restored.
     */
    private static String selfCheck(Path path) {
        FileChannel probe;
        try {
            probe = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException | RuntimeException e) {
            return NOT_CHECKED;
        }
        boolean wasInterrupted = Thread.interrupted();
        try (probe) {
            if (probe.getClass() != IMPL) {
                return "FileChannel.open returned a " + probe.getClass().getName() + ", not a " + IMPL.getName();
            }
            makeUninterruptible(probe);
            Thread.currentThread().interrupt();
            try {
                probe.read(ByteBuffer.allocate(1), 0);
                probe.size();
            } catch (IOException e) {
                return "IO by an interrupted thread on a channel marked uninterruptible failed: " + e;
            }
            if (!probe.isOpen()) {
                return "an interrupt closed a channel marked uninterruptible";
            }
            if (!Thread.currentThread().isInterrupted()) {
                return "IO on a channel marked uninterruptible cleared the thread's interrupt status";
            }
            return null;
        } catch (IOException | RuntimeException | LinkageError e) {
            return "marking a file channel uninterruptible failed: " + e;
        } finally {
            Thread.interrupted();
            if (wasInterrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
