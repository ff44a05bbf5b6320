package io.ratatosk.pagecache.internal;

import io.ratatosk.pagecache.Waits;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Opens through another opener and remembers every channel and path, so tests can see reopens and act on the channel. */
final class RecordingOpener implements FileChannelOpener {
    private final FileChannelOpener opener;
    final List<FileChannel> channels = new CopyOnWriteArrayList<>();
    final List<Path> paths = new CopyOnWriteArrayList<>();

    RecordingOpener(FileChannelOpener opener) {
        this.opener = opener;
    }

    @Override
    public FileChannel open(Path path, boolean create) throws IOException {
        FileChannel channel = opener.open(path, create);
        paths.add(path);
        channels.add(channel);
        return channel;
    }

    FileChannel latest() {
        return channels.get(channels.size() - 1);
    }

    int opened() {
        return channels.size();
    }

    /**
     * What an application interrupt does to a thread in the middle of IO on the swapper's channel: on
     * another thread, interrupts itself and calls the channel. Returns whether that closed the channel.
     */
    boolean interruptAnotherThreadInIo() throws InterruptedException {
        FileChannel channel = latest();
        Throwable[] failed = new Throwable[1]; // thrown on the other thread, it only went to the uncaught handler
        Thread other = new Thread(() -> {
            Thread.currentThread().interrupt();
            try {
                channel.size();
            } catch (ClosedByInterruptException expectedForAnInterruptibleChannel) {
                // the JDK closed the channel for every thread
            } catch (Throwable t) {
                failed[0] = t; // a channel closed already, say: not the interrupt's doing
            }
        }, "interrupted in IO");
        other.start();
        Waits.join(other, other.getName());
        if (failed[0] != null) {
            throw new AssertionError("the interrupted thread's IO on the channel failed other than by the interrupt",
                failed[0]);
        }
        return !channel.isOpen();
    }
}
