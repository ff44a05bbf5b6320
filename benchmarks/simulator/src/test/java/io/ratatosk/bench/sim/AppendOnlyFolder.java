package io.ratatosk.bench.sim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A folder in which new files and folders can be made but none deleted (Linux's append-only attribute, chattr +a), for
 * the tests of a clean-up that fails: a run makes its output's folder there and cannot delete it again. Setting it
 * takes CAP_LINUX_IMMUTABLE (root); {@link #make} says whether it took.
 */
public final class AppendOnlyFolder implements AutoCloseable {
    private final Path folder;

    private AppendOnlyFolder(Path folder) {
        this.folder = folder;
    }

    /** {@code folder} (which must exist) made append-only, or null where this machine or user cannot. */
    public static AppendOnlyFolder make(Path folder) throws IOException, InterruptedException {
        return chattr("+a", folder) ? new AppendOnlyFolder(folder) : null;
    }

    /** Deletable again, so that the test's temporary folder goes. */
    @Override
    public void close() throws IOException, InterruptedException {
        chattr("-a", folder);
    }

    private static boolean chattr(String flag, Path folder) throws IOException, InterruptedException {
        Process chattr;
        try {
            chattr = new ProcessBuilder("chattr", flag, folder.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException noChattr) {
            return false;
        }
        if (!chattr.waitFor(10, TimeUnit.SECONDS)) {
            chattr.destroyForcibly();
            return false;
        }
        return chattr.exitValue() == 0;
    }
}
