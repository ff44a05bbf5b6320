package io.ratatosk.pagecache.internal;

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
        Thread other = new Thread(() -> {
            Thread.currentThread().interrupt();
            try {
                channel.size();
            } catch (ClosedByInterruptException expectedForAnInterruptibleChannel) {
                // the JDK closed the channel for every thread
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        other.start();
        other.join();
        return !channel.isOpen();
    }
}
