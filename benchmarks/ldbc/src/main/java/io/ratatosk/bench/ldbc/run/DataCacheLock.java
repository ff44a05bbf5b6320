package io.ratatosk.bench.ldbc.run;

import io.ratatosk.bench.ldbc.ProgressOutput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One run at a time on a data cache folder: two runs given one --data-cache loaded the same store at once, each
 * deleting the other's files, and one ran on a store whose completion marker the other had written over half its
 * files ("nodes.store has 0 bytes"); they also copy the store for their updates into one folder. A second run waits,
 * saying so, until the first ends; the operating system drops the lock of a run that is killed.
 */
public final class DataCacheLock implements AutoCloseable {
    /** The lock file, in the data cache folder. */
    static final String FILE = ".lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataCacheLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the data cache {@code dir} (which must exist), waiting for the run that holds it, if any. */
    public static DataCacheLock take(Path dir, ProgressOutput progress) throws IOException {
        FileChannel channel = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (IOException e) {
            // A file system without locks (some NFS mounts): run as before there were any, saying so.
            channel.close();
            progress.note("the data cache %s cannot be locked (%s): another run given it at the same time would load"
                + " over this one's store", dir, e.getMessage());
            return new DataCacheLock(null, null);
        } catch (RuntimeException e) {
            channel.close();
            throw e;
        }
        try {
            if (lock == null) {
                progress.note("another ./bench ldbc is using the data cache %s; waiting until it ends (--data-cache to"
                    + " use another folder)", dir);
                lock = channel.lock();
            }
            return new DataCacheLock(channel, lock);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        if (channel == null) {
            return;
        }
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
